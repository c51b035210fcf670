// HTTP glue of the notes handlers (the domain in service.ts knows nothing of it): single-note
// responses with their validators and folderPaths, conditional GET, If-Match, Idempotency-Keys of
// creates. Not in the kernel: it reads the folder paths and the idempotency keys through the wiring.
import { etagListed, isNotModified } from '../../http/conditional.ts';
import type { Completion } from '../../domain/idempotency.ts';
import { idempotent } from '../../http/idempotency.ts';
import { notModified, ok, type HttpRequest, type HttpResult } from '../../http/rest.ts';
import { type CreatedNote, etagOf, type NoteRecord, type NoteWithContent } from '../kernel/model.ts';
import { presentNote, presentSingleNote } from '../kernel/present.ts';
import type { Precondition } from './service.ts';
import { folderPaths } from '../folders/wiring.ts';
import { notesIdempotency } from './wiring.ts';

const validators = ({ note }: NoteWithContent) => ({
  ETag: etagOf(note),
  'Last-Modified': new Date(note.lastChangedAt).toUTCString(),
});

/** 200 with the single note (its folderPaths as the viewer may see them), its ETag and Last-Modified. */
export async function singleNote(viewerId: string, n: NoteWithContent): Promise<HttpResult> {
  const pathOf = await folderPaths().pathsFor(viewerId, [n.note]);
  return ok(presentSingleNote(n, pathOf(n.note)), validators(n));
}

/** 200 with the notes, each with its folderPaths as the viewer may see them. */
export async function noteList(viewerId: string, list: NoteRecord[]): Promise<HttpResult> {
  const pathOf = await folderPaths().pathsFor(viewerId, list);
  return ok(list.map((n) => presentNote(n, pathOf(n))));
}

/** GetNote: 304 (empty) when If-None-Match lists the ETag, or, without it, If-Modified-Since is not older. */
export async function conditionalGet(
  viewerId: string,
  headers: Record<string, string | undefined>,
  n: NoteWithContent,
): Promise<HttpResult> {
  return isNotModified(headers, etagOf(n.note), n.note.lastChangedAt)
    ? notModified(validators(n))
    : singleNote(viewerId, n);
}

/** If-Match (strong comparison) as the domain's precondition on the note; none without the header. */
export const ifMatch = (headers: Record<string, string | undefined>): Precondition | undefined => {
  const header = headers['if-match'];
  return header === undefined ? undefined : (note) => etagListed(header, etagOf(note), false);
};

/**
 * Runs a create under the request's Idempotency-Key, if it has one (lib/http/idempotency.ts). The
 * target folder's path is read before the write, so the stored response carries folderPaths too.
 * A note created at the top level because its parentFolderId names no folder is 207 {note, error}.
 */
export async function idempotentCreate(
  req: HttpRequest,
  work: (complete: ((created: CreatedNote) => Completion) | undefined) => Promise<CreatedNote>,
): Promise<HttpResult> {
  const userId = req.principal.userId;
  const teamPath = (req.path as { teamPath?: string }).teamPath ?? null;
  const parentFolderId = (req.body as { parentFolderId?: string | null } | undefined)?.parentFolderId || null;
  const where = { ownerId: teamPath ? null : userId, teamPath, parentFolderId } as NoteRecord;
  const pathOf = await folderPaths().pathsFor(userId, [where]);
  const respond = (n: CreatedNote) =>
    n.misplaced
      ? { status: 207, body: { note: presentSingleNote(n), error: n.misplaced }, headers: validators(n) }
      : ok(presentSingleNote(n, pathOf(n.note)), validators(n));
  return idempotent(req, { keys: notesIdempotency() }, respond, work);
}
