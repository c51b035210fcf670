// A note's record as the domain holds it, for unit tests of code that reads records (the webhook
// event catalogue and router): a personal note of user u1 (alice), changed at 1000, and a webhook of
// that workspace.
import type { NoteRecord } from '../../lib/notes/kernel/model.ts';
import type { WebhookRecord } from '../../lib/notes/webhooks/webhooks.ts';

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

export const webhookRecord = (over: Partial<WebhookRecord> = {}): WebhookRecord => ({
  id: 'h1',
  owner: { userId: 'u1' },
  name: '',
  url: 'https://example.com/h',
  scope: { type: 'workspace' },
  active: true,
  sealedSecret: 's',
  deliveryPolicyStatus: 'normal',
  deliveryPolicyReason: null,
  createdAt: 1,
  updatedAt: 1,
  ...over,
});
