// What the DynamoDB notes store's writes bill (priced by the bench's biller, infra/bench/biller.ts:
// DynamoDB Local's own ConsumedCapacity misprices transactions) and what an interrupted write leaves.
// The content item is written once, with a PutItem, never inside the transaction that makes it the
// note's (a transaction bills each item twice); a read bills the same history entry at any size.
import { randomBytes, randomUUID } from 'node:crypto';
import { GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startBilling } from '../../infra/bench/biller.ts';
import { markdown } from '../../infra/bench/scenarios/notes-costs.ts';
import { itemSize, type StoredItem } from '../../infra/bench/billing.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { type ContentSlot, notesKeys } from '../../lib/data/keys.ts';
import { metered } from '../../lib/data/metering.ts';
import { noteIdOf, type NoteRecord, shortIdOf } from '../../lib/notes/kernel/model.ts';
import { DynamoNotesStore } from '../../lib/notes/notes/adapters/dynamo-notes.ts';

const TableName = process.env.TABLE_NAME!;
const stop = startBilling();
afterAll(stop);
const store = new DynamoNotesStore();

const note = (ownerId: string, over: Partial<NoteRecord> = {}): NoteRecord => {
  const id = noteIdOf(randomBytes(16));
  return {
    id,
    shortId: shortIdOf(id),
    ownerId,
    userPath: `p-${ownerId}`,
    teamPath: null,
    title: 'T',
    explicitTitle: null,
    tags: [],
    description: '',
    createdAt: 1,
    lastChangedAt: 1,
    titleUpdatedAt: null,
    tagsUpdatedAt: null,
    lastChangeUser: null,
    publishType: 'edit',
    publishedAt: null,
    permalink: null,
    readPermission: 'signed_in',
    writePermission: 'owner',
    commentPermission: 'signed_in_users',
    suggestEditPermission: 'signed_in_users',
    parentFolderId: null,
    origin: null,
    noteFeatures: null,
    version: 1,
    ...over,
  };
};

const writeUnits = async (fn: () => Promise<unknown>) => Number((await metered(fn)).meter.writeUnits);

/** Write units of a PutItem of the note's content item as stored (1 per KB of its size). */
async function contentUnits(shortId: string, slot?: ContentSlot): Promise<number> {
  const { Item } = await documentClient().send(
    new GetItemCommand({
      TableName,
      Key: marshalled(notesKeys.noteContent(shortId, slot)),
      ConsistentRead: true,
    }),
  );
  expect(Item).toBeDefined();
  return Math.max(1, Math.ceil(itemSize(Item as StoredItem) / 1024));
}

const marshalled = (key: { PK: string; SK: string }) => ({ PK: { S: key.PK }, SK: { S: key.SK } });

/** The SKs of the note's partition as stored. */
async function partition(shortId: string): Promise<string[]> {
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': { S: notesKeys.notePartition(shortId) } },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((i) => String(i.SK.S)).sort();
}

describe('DynamoDB notes store: writes billed once', () => {
  it('a create bills its content once: 20 KiB more content costs its item’s units once more', async () => {
    const u = randomUUID();
    const [small, large] = [note(u), note(u)];
    const smallUnits = await writeUnits(() => store.createNote(small, markdown(20, 'small'), u));
    const largeUnits = await writeUnits(() => store.createNote(large, markdown(20_480, 'large'), u));
    const more = (await contentUnits(large.shortId)) - (await contentUnits(small.shortId));
    expect(more).toBeGreaterThan(2);
    expect(largeUnits - smallUnits).toBe(more);
  });

  it('a content change bills the new content once, the metadata-only change none of it', async () => {
    const u = randomUUID();
    const [small, large] = [note(u), note(u)];
    for (const n of [small, large]) await store.createNote(n, 'x', u);
    const save = (n: NoteRecord, content: string | undefined, title = n.title) =>
      store.getNote(n.shortId).then((read) => store.saveNote(read!, { ...n, title, version: 2 }, content, u));
    const smallUnits = await writeUnits(() => save(small, markdown(20, 'small')));
    const largeUnits = await writeUnits(() => save(large, markdown(20_480, 'large')));
    const more = (await contentUnits(large.shortId, 'B')) - (await contentUnits(small.shortId, 'B'));
    expect(more).toBeGreaterThan(2);
    expect(largeUnits - smallUnits).toBe(more);
    // Tags, title, permissions: META and the history entry only, whatever the content's size.
    const [a, b] = [note(u), note(u)];
    await store.createNote(a, markdown(20, 'a'), u);
    await store.createNote(b, markdown(20_480, 'b'), u);
    expect(await writeUnits(() => save(b, undefined, 'T2'))).toBe(
      await writeUnits(() => save(a, undefined, 'T2')),
    );
  });

  it("a reader's visit bills the same at 20 B and at 20 KiB", async () => {
    const u = randomUUID();
    const [small, large] = [note(u), note(u)];
    await store.createNote(small, markdown(20, 'small'), u);
    await store.createNote(large, markdown(20_480, 'large'), u);
    const reader = randomUUID();
    const visit = (n: NoteRecord) => writeUnits(() => store.recordVisit(n, reader));
    expect(await visit(large)).toBe(await visit(small));
  });

  it('an interrupted create leaves nothing: its content is taken back, a reader and the lists see none', async () => {
    const u = randomUUID();
    await store.createNote(note(u, { permalink: 'taken' }), 'first', u);
    const second = note(u, { permalink: 'taken' });
    // The content is put, then the transaction is cancelled (the permalink is taken).
    await expect(store.createNote(second, markdown(4096, 'orphan'), u)).rejects.toMatchObject({
      reason: 'permalink',
    });
    expect(await partition(second.shortId)).toEqual([]);
    expect(await store.getNote(second.shortId)).toBeUndefined();
    expect((await store.listNotes({ userId: u })).map((n) => n.id)).not.toContain(second.id);
    // The same note, written again, is created whole.
    await store.createNote({ ...second, permalink: 'free' }, 'again', u);
    expect(await store.getNote(second.shortId)).toMatchObject({ content: 'again' });
  });

  it('an interrupted content change leaves the note as it was; the next one reuses its slot; a delete takes both', async () => {
    const u = randomUUID();
    await store.createNote(note(u, { permalink: 'held' }), '', u);
    const n = note(u);
    await store.createNote(n, 'before', u);
    const read = (await store.getNote(n.shortId))!;
    // Its content is put in slot B, then the transaction is cancelled (the permalink is taken).
    await expect(
      store.saveNote(read, { ...n, permalink: 'held', version: 2 }, 'interrupted', u),
    ).rejects.toMatchObject({ reason: 'permalink' });
    expect(await store.getNote(n.shortId)).toMatchObject({ note: { version: 1 }, content: 'before' });
    await store.saveNote(read, { ...n, version: 2 }, 'after', u);
    const after = (await store.getNote(n.shortId, { visitors: true }))!;
    expect(after).toMatchObject({ note: { version: 2 }, content: 'after', contentSlot: 'B' });
    expect(await partition(n.shortId)).toEqual(['NOTE#CONTENT', 'NOTE#CONTENT#B', 'NOTE#META', `VISIT#${u}`]);
    await store.saveNote(after, { ...n, version: 3 }, 'back in A', u);
    expect(await store.getNote(n.shortId)).toMatchObject({ content: 'back in A' });
    await store.deleteNote((await store.getNote(n.shortId, { visitors: true }))!);
    expect((await partition(n.shortId)).filter((sk) => sk.startsWith('NOTE#CONTENT'))).toEqual([]);
  });
});
