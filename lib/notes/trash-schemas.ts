// zod schemas of the trash routes (HackMD API v1 Trash).
import { z } from 'zod';
import { MAX_BATCH_RESTORE } from './trash.ts';

const noteRef = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a note id or shortId');
export const batchRestoreBody = z.strictObject({ noteIds: z.array(noteRef).min(1).max(MAX_BATCH_RESTORE) });

// ---- responses ----
export const apiTrashNote = z.strictObject({
  id: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  deletedAt: z.number().describe('epoch milliseconds'),
  ownerId: z.string().describe("the note's owner; for a team note, the team's owner"),
  teamId: z.string().nullable(),
  shortId: z.string(),
  publishType: z.string(),
  permanentDeletedAt: z.number().nullable().describe('epoch milliseconds when the note is purged for good'),
});
export const trashBatchResult = z
  .record(
    z.string(),
    z.strictObject({
      status: z.enum(['success', 'failure']),
      reason: z.enum(['NOT_FOUND', 'PERMISSION_DENIED', 'INTERNAL_ERROR']).optional(),
    }),
  )
  .describe('note id → outcome');
