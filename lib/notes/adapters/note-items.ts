// The NoteRecord stored in a note's META item (and copied into history entries), as read back.
import type { NoteRecord } from '../model.ts';

export const NOTE_FIELDS = [
  'id',
  'shortId',
  'ownerId',
  'userPath',
  'teamPath',
  'title',
  'explicitTitle',
  'tags',
  'description',
  'createdAt',
  'lastChangedAt',
  'titleUpdatedAt',
  'tagsUpdatedAt',
  'lastChangeUser',
  'publishType',
  'publishedAt',
  'permalink',
  'readPermission',
  'writePermission',
  'commentPermission',
  'suggestEditPermission',
  'parentFolderId',
  'origin',
  'noteFeatures',
  'version',
] as const satisfies readonly (keyof NoteRecord)[];

export const toRecord = (item: Record<string, unknown>): NoteRecord =>
  Object.fromEntries(NOTE_FIELDS.map((f) => [f, item[f] ?? null])) as unknown as NoteRecord;
