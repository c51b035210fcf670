// HTTP glue of the notes handlers (the domain in service.ts knows nothing of it): single-note
// responses with their validators and folderPaths, conditional GET, If-Match, Idempotency-Keys of
// creates. The responses only shape what they are given: the handler reads the folderPaths (the
// folders service's pathsFor) and passes them in. Not in the kernel: it reads the idempotency keys
// through the wiring.
import { etagListed, isNotModified } from '../../http/conditional.ts';
import type { Completion } from '../../domain/idempotency.ts';
import { idempotent } from '../../http/idempotency.ts';
import { notModified, ok, type HttpRequest, type HttpResult } from '../../http/rest.ts';
import { type CreatedNote, etagOf, type NoteRecord, type NoteWithContent } from '../kernel/model.ts';
import { type PathOf, presentNote, presentSingleNote } from '../kernel/present.ts';
import type { Precondition } from './service.ts';
import { notesIdempotency } from './wiring.ts';

const validators = ({ note }: NoteWithContent) => ({
  ETag: etagOf(note),
  'Last-Modified': new Date(note.lastChangedAt).toUTCString(),
});

/** 200 with the single note (its folderPaths as `pathOf` gives them), its ETag and Last-Modified. */
export const singleNote = (n: NoteWithContent, pathOf: PathOf): HttpResult =>
  ok(presentSingleNote(n, pathOf(n.note)), validators(n));

/** 200 with the notes, each with its folderPaths as `pathOf` gives them. */
export const noteList = (list: NoteRecord[], pathOf: PathOf): HttpResult =>
  ok(list.map((n) => presentNote(n, pathOf(n))));

/**
 * GetNote's 304 (empty) when If-None-Match lists the ETag, or, without it, If-Modified-Since is not
 * older; undefined when the note is to be sent (then the handler reads its folderPaths, no sooner).
 */
export const notModifiedNote = (
  headers: Record<string, string | undefined>,
  n: NoteWithContent,
): HttpResult | undefined =>
  isNotModified(headers, etagOf(n.note), n.note.lastChangedAt) ? notModified(validators(n)) : undefined;

/** If-Match (strong comparison) as the domain's precondition on the note; none without the header. */
export const ifMatch = (headers: Record<string, string | undefined>): Precondition | undefined => {
  const header = headers['if-match'];
  return header === undefined ? undefined : (note) => etagListed(header, etagOf(note), false);
};

/** Where a create puts its note (its workspace and target folder), for reading its folderPaths first. */
export function createTarget(req: HttpRequest): NoteRecord {
  const userId = req.principal.userId;
  const teamPath = (req.path as { teamPath?: string }).teamPath ?? null;
  const parentFolderId = (req.body as { parentFolderId?: string | null } | undefined)?.parentFolderId || null;
  return { ownerId: teamPath ? null : userId, teamPath, parentFolderId } as NoteRecord;
}

/**
 * Runs a create under the request's Idempotency-Key, if it has one (lib/http/idempotency.ts). The
 * handler reads the target folder's path (of `createTarget`) before the write, so the stored
 * response carries folderPaths too. A note created at the top level because its parentFolderId
 * names no folder is 207 {note, error}.
 */
export function idempotentCreate(
  req: HttpRequest,
  pathOf: PathOf,
  work: (complete: ((created: CreatedNote) => Completion) | undefined) => Promise<CreatedNote>,
): Promise<HttpResult> {
  const respond = (n: CreatedNote) =>
    n.misplaced
      ? { status: 207, body: { note: presentSingleNote(n), error: n.misplaced }, headers: validators(n) }
      : ok(presentSingleNote(n, pathOf(n.note)), validators(n));
  return idempotent(req, { keys: notesIdempotency() }, respond, work);
}
