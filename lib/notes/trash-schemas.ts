// zod schemas of the trash routes' requests (HackMD API v1 Trash); responses: response-schemas.ts.
import * as z from 'zod/mini';
import { MAX_BATCH_RESTORE } from './trash.ts';

const noteRef = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a note id or shortId'));
export const batchRestoreBody = z.strictObject({
  noteIds: z.array(noteRef).check(z.minLength(1), z.maxLength(MAX_BATCH_RESTORE)),
});
