// zod schemas of the trash routes (HackMD API v1 Trash).
import * as z from 'zod/mini';
import { MAX_BATCH_RESTORE } from './trash.ts';

const noteRef = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a note id or shortId'));
export const batchRestoreBody = z.strictObject({
  noteIds: z.array(noteRef).check(z.minLength(1), z.maxLength(MAX_BATCH_RESTORE)),
});

// ---- responses ----
export const apiTrashNote = z.strictObject({
  id: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  deletedAt: z.number().check(z.describe('epoch milliseconds')),
  ownerId: z.string().check(z.describe("the note's owner; for a team note, the team's owner")),
  teamId: z.nullable(z.string()),
  shortId: z.string(),
  publishType: z.string(),
  permanentDeletedAt: z
    .nullable(z.number())
    .check(z.describe('epoch milliseconds when the note is purged for good')),
});
export const trashBatchResult = z
  .record(
    z.string(),
    z.strictObject({
      status: z.enum(['success', 'failure']),
      reason: z.optional(z.enum(['NOT_FOUND', 'PERMISSION_DENIED', 'INTERNAL_ERROR'])),
    }),
  )
  .check(z.describe('note id → outcome'));
