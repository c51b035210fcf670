// multipart/form-data bodies, parsed with busboy (@fastify/busboy). Every stream busboy hands out
// has an error listener: an unterminated body makes busboy fail the whole parse AND, a tick later,
// the open part's file stream ("Part terminated early"). @middy/http-multipart-body-parser 7.9.2
// listens only to the first, so the second was an unhandled 'error' event that crashed the process
// after the 422 had been answered. Here the first error settles the parse; later ones
// are absorbed.
import Busboy from '@fastify/busboy';
import { ApiError } from './errors.ts';

export interface FilePart {
  filename: string;
  mimetype: string;
  encoding: string;
  content: Buffer;
}
/** Parts by field name: a file part, a field's value, or an array when a name repeats (first part first). */
export type Parts = Record<string, FilePart | string | Array<FilePart | string>>;

export interface MultipartLimits {
  /** Largest file part, in bytes: over it, 413 naming the part. */
  fileSize: number;
  /** File parts parsed (more are skipped). */
  files: number;
  /** Longest field name. */
  fieldNameSize?: number;
}

const malformed = (reason: string) =>
  new ApiError('validation_failed', 'The multipart body is malformed', {
    fields: [{ field: 'body', message: reason }],
  });

/** Parses `body` (as API Gateway passes it) with the request's content type (with its boundary). */
export function parseMultipart(
  body: string,
  isBase64Encoded: boolean,
  contentType: string,
  limits: MultipartLimits,
): Promise<Parts> {
  const parts: Parts = Object.create(null);
  const add = (name: string, part: FilePart | string) => {
    const current = parts[name];
    if (current === undefined) parts[name] = part;
    else if (Array.isArray(current)) current.push(part);
    else parts[name] = [current, part];
  };
  const nameSize = limits.fieldNameSize ?? 100;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: ApiError) => {
      if (!settled) reject(err);
      settled = true;
    };
    let busboy: ReturnType<typeof Busboy>;
    try {
      busboy = Busboy({
        headers: { 'content-type': contentType },
        limits: { fileSize: limits.fileSize, files: limits.files, fieldNameSize: nameSize, parts: 1000 },
      });
    } catch (err) {
      return fail(malformed((err as Error).message));
    }
    busboy.on('file', (name, file, filename, encoding, mimetype) => {
      const chunks: Buffer[] = [];
      file.on('error', (err: Error) => fail(malformed(err.message)));
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      file.on('limit', () => {
        const description = `${name} must be at most ${limits.fileSize} bytes`;
        fail(
          new ApiError('payload_too_large', description, { fields: [{ field: name, message: description }] }),
        );
      });
      file.on('end', () => {
        if (name.length > nameSize)
          return fail(malformed(`a part name is longer than ${nameSize} characters`));
        add(name, { filename, mimetype, encoding, content: Buffer.concat(chunks) });
      });
    });
    busboy.on('field', (name, value) => {
      if (name.length > nameSize) return fail(malformed(`a part name is longer than ${nameSize} characters`));
      add(name, value);
    });
    busboy.on('error', (err: Error) => fail(malformed(err.message)));
    busboy.on('finish', () => {
      if (!settled) resolve(parts);
      settled = true;
    });
    busboy.end(Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8'));
  });
}
