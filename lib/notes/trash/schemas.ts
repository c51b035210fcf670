// valibot schemas of the trash routes' requests (HackMD API v1 Trash); responses: ./response-schemas.ts.
import * as v from 'valibot';
import { object } from '../../domain/schema.ts';
import { MAX_BATCH_RESTORE } from './trash.ts';

const noteRef = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a note id or shortId'));
export const batchRestoreBody = object({
  noteIds: v.pipe(v.array(noteRef), v.minLength(1), v.maxLength(MAX_BATCH_RESTORE)),
});
