// A note's record as the domain holds it, for unit tests of code that reads records (the webhook
// event catalogue and router): a personal note of user u1 (alice), changed at 1000.
import type { NoteRecord } from '../../lib/notes/model.ts';

export const noteRecord = (over: Partial<NoteRecord> = {}): NoteRecord => ({
  id: 'abcdefghijklmnopqrstuv',
  shortId: 'abcdefghij',
  ownerId: 'u1',
  userPath: 'alice',
  teamPath: null,
  title: 'T',
  explicitTitle: null,
  tags: [],
  description: '',
  createdAt: 1000,
  lastChangedAt: 1000,
  titleUpdatedAt: null,
  tagsUpdatedAt: null,
  lastChangeUser: null,
  publishType: 'edit',
  publishedAt: null,
  permalink: null,
  readPermission: 'owner',
  writePermission: 'owner',
  commentPermission: 'signed_in_users',
  suggestEditPermission: 'signed_in_users',
  parentFolderId: null,
  origin: null,
  noteFeatures: null,
  version: 1,
  ...over,
});
