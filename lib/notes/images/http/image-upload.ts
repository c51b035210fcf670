// The multipart parser of note image uploads (UploadNoteImage), in a module of its own: busboy is
// CommonJS, which esbuild keeps whole in any bundle that imports it, so only this function imports it.
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { parseMultipart } from '../../../http/multipart.ts';
import { ApiError, type ApiEvent, type ApiResult } from '../../../http/rest.ts';
import { MAX_IMAGE_BYTES } from '../../kernel/model.ts';

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
