// The combinations of a note update that `note.updated` must name exactly, shared by the event
// catalogue's unit test and the end-to-end delivery test. Each starts from START (the owner's note,
// readable and writable by signed-in users, so another user may change what an editor may) and is
// one PATCH by the owner or by another user.
export const START = {
  content: '# Start\n\nbody',
  readPermission: 'signed_in',
  writePermission: 'signed_in',
} as const;

export interface ChangeCase {
  name: string;
  by: 'owner' | 'other';
  patch: Record<string, unknown>;
  changes: string[];
}

const edited = '# Start\n\nbody, edited';
export const CHANGE_CASES: ChangeCase[] = [
  { name: 'content alone', by: 'owner', patch: { content: edited }, changes: ['content'] },
  { name: 'title alone', by: 'owner', patch: { title: 'Named' }, changes: ['title'] },
  { name: 'tags alone', by: 'owner', patch: { tags: ['t1'] }, changes: ['tags'] },
  { name: 'description alone', by: 'owner', patch: { description: 'd' }, changes: ['description'] },
  {
    name: 'readPermission alone',
    by: 'owner',
    patch: { readPermission: 'guest' },
    changes: ['readPermission'],
  },
  {
    name: 'writePermission alone',
    by: 'owner',
    patch: { writePermission: 'owner' },
    changes: ['writePermission'],
  },
  { name: 'permalink alone', by: 'owner', patch: { permalink: 'p-1' }, changes: ['permalink'] },
  {
    name: 'content + title',
    by: 'owner',
    patch: { content: edited, title: 'Named' },
    changes: ['content', 'title'],
  },
  {
    name: 'content + tags',
    by: 'owner',
    patch: { content: edited, tags: ['t1'] },
    changes: ['content', 'tags'],
  },
  {
    name: 'content + readPermission',
    by: 'owner',
    patch: { content: edited, readPermission: 'guest' },
    changes: ['content', 'readPermission'],
  },
  {
    name: 'content + writePermission',
    by: 'owner',
    patch: { content: edited, writePermission: 'owner' },
    changes: ['content', 'writePermission'],
  },
  {
    name: 'content + description',
    by: 'owner',
    patch: { content: edited, description: 'd' },
    changes: ['content', 'description'],
  },
  {
    name: 'content + permalink',
    by: 'owner',
    patch: { content: edited, permalink: 'p-2' },
    changes: ['content', 'permalink'],
  },
  {
    name: 'content whose heading is the title',
    by: 'owner',
    patch: { content: '# Moved on\n\nbody' },
    changes: ['content', 'title'],
  },
  {
    name: 'title + tags + both permissions',
    by: 'owner',
    patch: { title: 'Named', tags: ['t1'], readPermission: 'guest', writePermission: 'owner' },
    changes: ['title', 'tags', 'readPermission', 'writePermission'],
  },
  {
    name: 'the same content sent again + title',
    by: 'owner',
    patch: { content: START.content, title: 'Named' },
    changes: ['title'],
  },
  { name: 'content alone', by: 'other', patch: { content: edited }, changes: ['content'] },
  { name: 'title alone', by: 'other', patch: { title: 'Named' }, changes: ['title'] },
  { name: 'tags alone', by: 'other', patch: { tags: ['t1'] }, changes: ['tags'] },
  {
    name: 'content + title',
    by: 'other',
    patch: { content: edited, title: 'Named' },
    changes: ['content', 'title'],
  },
  {
    name: 'content + tags',
    by: 'other',
    patch: { content: edited, tags: ['t1'] },
    changes: ['content', 'tags'],
  },
  {
    name: 'content + description',
    by: 'other',
    patch: { content: edited, description: 'd' },
    changes: ['content', 'description'],
  },
];
