// valibot schemas that only describe the trash routes' responses (the kernel's shared ones: ../kernel/
// response-schemas.ts); infra/openapi/notes.ts documents them. No function imports this module.
// Answers are documented closed (v.strictObject): the API sends no other field.
import * as v from 'valibot';
import { described } from '../kernel/response-schemas.ts';

export const apiTrashNote = v.strictObject({
  id: v.string(),
  title: v.string(),
  tags: v.array(v.string()),
  deletedAt: described(v.number(), 'epoch milliseconds'),
  ownerId: described(v.string(), "the note's owner; for a team note, the team's owner"),
  teamId: v.nullable(v.string()),
  shortId: v.string(),
  publishType: v.string(),
  permanentDeletedAt: described(
    v.nullable(v.number()),
    'epoch milliseconds when the note is purged for good',
  ),
});
export const trashBatchResult = v.pipe(
  v.record(
    v.string(),
    v.strictObject({
      status: v.picklist(['success', 'failure']),
      reason: v.optional(v.picklist(['NOT_FOUND', 'PERMISSION_DENIED', 'INTERNAL_ERROR'])),
    }),
  ),
  v.description('note id → outcome'),
);
