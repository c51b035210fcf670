// HTTP glue the Notes handlers share (the domain in service.ts knows nothing of it): single-note
// responses with their validators, conditional GET, If-Match, and the multipart parser of image uploads.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { etagListed, isNotModified } from '../../http/conditional.ts';
import type { Completion } from '../../domain/idempotency.ts';
import { idempotent } from '../../http/idempotency.ts';
import { parseMultipart } from '../../http/multipart.ts';
import {
  ApiError,
  notModified,
  ok,
  type ApiEvent,
  type ApiResult,
  type HttpRequest,
  type HttpResult,
} from '../../http/rest.ts';
import { etagOf, MAX_IMAGE_BYTES, type NoteRecord, type NoteWithContent } from '../model.ts';
import { presentNote, presentSingleNote } from '../present.ts';
import type { Precondition } from '../service.ts';
import { folderPaths, notesIdempotency } from '../wiring.ts';

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

const MAX_FILE_PARTS = 4;

/** Anything but exactly one part named image: 422 naming each offending part. */
function exactlyOneImage(parts: Record<string, unknown>): void {
  const only = 'only one part, named image, is allowed';
  const fields = Object.keys(parts)
    .filter((name) => name !== 'image')
    .map((field) => ({ field, message: only }));
  if (Array.isArray(parts.image))
    fields.unshift({ field: 'image', message: `${parts.image.length} parts named image; ${only}` });
  else if (fields.length && !Object.hasOwn(parts, 'image'))
    fields.push({ field: 'image', message: 'a file part named image is required' });
  if (fields.length)
    throw new ApiError('validation_failed', 'The multipart body must hold exactly one part, named image', {
      fields,
    });
}

/**
 * Runs a create under the request's Idempotency-Key, if it has one (lib/http/idempotency.ts). The
 * target folder's path is read before the write, so the stored response carries folderPaths too.
 */
export async function idempotentCreate(
  req: HttpRequest,
  work: (complete: ((created: NoteWithContent) => Completion) | undefined) => Promise<NoteWithContent>,
): Promise<HttpResult> {
  const userId = req.principal.userId;
  const teamPath = (req.path as { teamPath?: string }).teamPath ?? null;
  const parentFolderId = (req.body as { parentFolderId?: string | null } | undefined)?.parentFolderId || null;
  const where = { ownerId: teamPath ? null : userId, teamPath, parentFolderId } as NoteRecord;
  const pathOf = await folderPaths().pathsFor(userId, [where]);
  const respond = (n: NoteWithContent) => ok(presentSingleNote(n, pathOf(n.note)), validators(n));
  return idempotent(req, { keys: notesIdempotency() }, respond, work);
}

/**
 * multipart/form-data (base64 from API Gateway's binary media types), parsed by lib/http/multipart.ts;
 * a malformed body is 422 naming the body, an image over the limit 413 naming it. The content type
 * is checked here: RFC 2046 boundaries may hold "_", which axios (and so the official client) generates.
 */
export function imageUploadParser(): MiddlewareObj<ApiEvent, ApiResult, Error, Context> {
  return {
    before: async (request) => {
      const type = request.event.headers?.['content-type'] ?? '';
      if (!/^multipart\/form-data\s*;(.*;)?\s*boundary=/i.test(type)) {
        throw new ApiError(
          'unsupported_media_type',
          'The request body must be multipart/form-data with a part named image',
        );
      }
      // More file parts than one are parsed (busboy would drop them silently), then refused by name.
      const parts = await parseMultipart(request.event.body ?? '', request.event.isBase64Encoded, type, {
        fileSize: MAX_IMAGE_BYTES,
        files: MAX_FILE_PARTS,
      });
      exactlyOneImage(parts);
      (request.event as { body: unknown }).body = parts;
    },
  };
}
