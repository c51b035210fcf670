// The search indexes against the test stack's table and S3 emulator: a burst of edits through the
// table's stream (the runner's indexer function) loses none and leaves each index equal to a rebuild
// from the table; two indexers of one workspace at once lose nothing; a rebuild stopped halfway
// resumes from its checkpoint (`npm run admin -- search rebuild`).
import pMap from 'p-map';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { admin } from '../support/admin-cli.ts';
import { dynamoNoteSource } from '../../lib/notes/search/adapters/dynamo-note-source.ts';
import { s3IndexStore } from '../../lib/notes/search/adapters/s3-index-store.ts';
import { NoteIndex } from '../../lib/notes/search/engine.ts';
import { SearchIndexer } from '../../lib/notes/search/indexer.ts';
import {
  parseQuery,
  type Query,
  teamWorkspace,
  userWorkspace,
  type Workspace,
} from '../../lib/notes/search/model.ts';
import { fullNotes } from '../../lib/notes/wiring.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { gzipSync } from 'node:zlib';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { searchKeys } from '../../lib/data/keys.ts';
import { s3Client } from '../../lib/data/s3.ts';

/** The word of edit `e` of note `i`: two words of different notes or edits differ in two letters or
 * more, so a one-letter typo match never confuses them. */
const marker = (i: number, e: number) => `mark${'abcdefghijklmnopqrstuvwxy'[i].repeat(3)}${e}${e}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A workspace's index: its segments, searched and compared as one. */
class Segments {
  constructor(readonly segments: NoteIndex[]) {}
  get size() {
    return this.segments.reduce((n, s) => n + s.size, 0);
  }
  versions() {
    return new Map(this.segments.flatMap((s) => [...s.versions()]));
  }
  search(query: Query) {
    return this.segments.flatMap((s) => s.search(query).candidates);
  }
  close() {
    for (const s of this.segments) s.close();
  }
}

/** Runs `use` on a workspace's index, then frees it. */
async function using<T>(index: Promise<Segments>, use: (index: Segments) => T): Promise<T> {
  const loaded = await index;
  try {
    return use(loaded);
  } finally {
    loaded.close();
  }
}

/** The workspace's index as stored now (no segment when it has none). */
async function stored(workspace: Workspace): Promise<Segments> {
  for (;;) {
    const heads = (await s3IndexStore.heads([workspace])).get(workspace) ?? [];
    const data = await Promise.all(heads.map((h) => s3IndexStore.load(h)));
    // A writer may replace a segment (and delete its old object) between the read of the head and
    // the read of the object, as the search's own loader knows: read the heads again.
    if (data.every((d) => d !== undefined))
      return new Segments(await Promise.all(data.map((d) => NoteIndex.fromBytes(d))));
  }
}

/** An index built from the table now, page by page, by nobody but this test. */
async function fromTable(workspace: Workspace): Promise<Segments> {
  const index = await NoteIndex.empty();
  let cursor: string | undefined;
  do {
    const page = await dynamoNoteSource.listShortIds(workspace, cursor);
    for (const s of await dynamoNoteSource.getNotes(page.shortIds))
      if (s) index.upsert({ ...s.note, content: s.content });
    cursor = page.cursor;
  } while (cursor);
  return new Segments([index]);
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(500);
  }
  return check();
}

/** Whether the workspace's stored index holds the notes of the table, at their versions. */
const sameNotes = async (workspace: Workspace) => {
  const [a, b] = await Promise.all([stored(workspace), fromTable(workspace)]);
  const same = JSON.stringify([...a.versions()].sort()) === JSON.stringify([...b.versions()].sort());
  a.close();
  b.close();
  return same;
};

afterEach(() => vi.restoreAllMocks());

describe('search indexes', () => {
  it('a burst of 1,000 edits through the stream loses none: the index equals a rebuild from the table', async () => {
    const owner = await newUser('Burst');
    const team = await newTeam(owner);
    const workspace = teamWorkspace(team.path);
    const created = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        fullNotes().createNote(owner.id, { content: `# Note ${i}\n\nstart` }, team.path),
      ),
    );
    // 40 edits of each of 25 notes (four notes edited at a time, each note's edits in order; DynamoDB
    // Local times out transactions under more); then every fifth note trashed.
    await pMap(
      created,
      async ({ note }, i) => {
        for (let e = 0; e < 40; e += 1)
          await fullNotes().updateNote(
            owner.id,
            note.shortId,
            { content: `# Note ${i}\n\n${marker(i, e)} burst` },
            { teamPath: team.path },
          );
        if (i % 5 === 0) await fullNotes().deleteNote(owner.id, note.shortId, team.path);
      },
      { concurrency: 4 },
    );
    expect(await using(fromTable(workspace), (t) => t.size)).toBe(20);
    const caughtUp = await until(() => sameNotes(workspace), 120_000);
    expect(caughtUp, 'the index caught up with the table').toBe(true);
    // Each kept note is found by its last edit's word, and by no earlier one.
    await using(stored(workspace), (index) => {
      for (const [i, { note }] of created.entries()) {
        expect(index.search(parseQuery(marker(i, 39))).map((c) => c.shortId)).toEqual(
          i % 5 ? [note.shortId] : [],
        );
        expect(index.search(parseQuery(marker(i, 38)))).toEqual([]);
      }
    });
  }, 600_000);

  it('two indexers of one workspace at once lose nothing (the head moves conditionally)', async () => {
    const owner = await newUser('Racer');
    const workspace = userWorkspace(owner.id);
    const made: { shortId: string }[] = [];
    for (let i = 0; i < 12; i += 1)
      made.push((await fullNotes().createNote(owner.id, { content: `race${i}` })).note);
    const indexer = () => new SearchIndexer({ indexes: s3IndexStore, notes: dynamoNoteSource });
    // Wait for the stream's own indexing to settle, then race 12 applies of one note each.
    await until(async () => (await using(stored(workspace), (s) => s.size)) === 12, 60_000);
    for (const n of made)
      await fullNotes().updateNote(owner.id, n.shortId, { content: `raced${n.shortId.toLowerCase()}` });
    await Promise.all(made.map((n) => indexer().apply(workspace, [n.shortId])));
    await using(stored(workspace), (index) => {
      for (const n of made)
        expect(index.search(parseQuery(`raced${n.shortId.toLowerCase()}`)).map((c) => c.shortId)).toEqual([
          n.shortId,
        ]);
    });
  }, 300_000);

  it('a rebuild stopped halfway resumes from its checkpoint and ends equal to the table', async () => {
    const owner = await newUser('Rebuild');
    const workspace = userWorkspace(owner.id);
    for (let i = 0; i < 30; i += 1) await fullNotes().createNote(owner.id, { content: `rebuilt${i}` });
    const progress: number[] = [];
    const crashing = new SearchIndexer({
      indexes: s3IndexStore,
      notes: dynamoNoteSource,
      pageSize: 5,
      checkpointEvery: 5,
    });
    await expect(
      crashing.rebuild(workspace, (done) => {
        progress.push(done);
        if (done === 15) throw new Error('stopped');
      }),
    ).rejects.toThrow('stopped');
    expect(await s3IndexStore.loadCheckpoint(workspace)).toBeDefined();
    // No object of the index has a name one could guess: the checkpoint's is named by the head item.
    const folder = `search/${encodeURIComponent(workspace)}/`;
    const listed = async () =>
      (
        (await s3Client().send(new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: folder })))
          .Contents ?? []
      ).map((o) => o.Key!.slice(folder.length));
    const head = async () =>
      (
        await documentClient().send(
          new GetCommand({
            TableName: config.tableName,
            Key: searchKeys.index(workspace),
            ConsistentRead: true,
          }),
        )
      ).Item!;
    const checkpoint = String((await head()).checkpoint);
    expect(checkpoint.slice(folder.length)).toMatch(/^rebuild-[\w-]{22}\.json\.gz$/); // 128 random bits
    const objects = await listed();
    expect(objects).toContain(checkpoint.slice(folder.length));
    expect(objects).not.toContain('rebuild.json.gz');
    for (const name of objects.filter((o) => !o.startsWith('rebuild-')))
      expect(name).toMatch(/^f\d\d-\d+-[\w-]{22}\.sqlite$/);
    // A rebuild stopped by an earlier version left its checkpoint at the fixed name: it still resumes.
    const saved = await s3Client().send(new GetObjectCommand({ Bucket: config.bucketName, Key: checkpoint }));
    const legacy = `${folder}rebuild.json.gz`;
    await s3Client().send(
      new PutObjectCommand({
        Bucket: config.bucketName,
        Key: legacy,
        Body: await saved.Body!.transformToByteArray(),
      }),
    );
    await s3Client().send(new DeleteObjectCommand({ Bucket: config.bucketName, Key: checkpoint }));
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: searchKeys.index(workspace),
        UpdateExpression: 'REMOVE #c',
        ExpressionAttributeNames: { '#c': 'checkpoint' },
      }),
    );
    const resumed: number[] = [];
    const again = new SearchIndexer({ indexes: s3IndexStore, notes: dynamoNoteSource, pageSize: 5 });
    await again.rebuild(workspace, (done) => resumed.push(done));
    expect(resumed[0]).toBeGreaterThan(5); // not from the start
    expect(await sameNotes(workspace)).toBe(true);
    expect(await s3IndexStore.loadCheckpoint(workspace)).toBeUndefined();
    expect((await listed()).filter((o) => o.startsWith('rebuild'))).toEqual([]); // the old name's gone too
    expect((await head()).checkpoint).toBeUndefined();

    // The admin command rebuilds any workspace, and rejects what is not one.
    expect(await admin('--bucket', process.env.BUCKET_NAME!, 'search', 'rebuild', workspace)).toMatchObject({
      workspace,
      notes: 30,
    });
    await expect(admin('search', 'rebuild', 'nobody')).rejects.toThrow();
  }, 300_000);

  it('an index stored by an earlier engine (one object, MiniSearch segments) is rebuilt by `search upgrade`, once', async () => {
    const owner = await newUser('Legacy Index');
    const workspace = userWorkspace(owner.id);
    for (let i = 0; i < 12; i += 1) await fullNotes().createNote(owner.id, { content: `legacy${i}` });
    // The head as the earlier layouts wrote it, and their objects: the one-object layout's
    // `location`, and a MiniSearch segment's attribute.
    const folder = `search/${encodeURIComponent(workspace)}/`;
    const location = `${folder}1-legacy.json.gz`;
    const segment = `${folder}s03-1-legacy.json.gz`;
    for (const Key of [location, segment])
      await s3Client().send(new PutObjectCommand({ Bucket: config.bucketName, Key, Body: gzipSync('{}') }));
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: searchKeys.index(workspace),
        UpdateExpression: 'SET #type = :type, generation = :g, #location = :l, notes = :n, s03 = :s',
        ExpressionAttributeNames: { '#type': 'type', '#location': 'location' },
        ExpressionAttributeValues: {
          ':type': 'search-index',
          ':g': 1,
          ':l': location,
          ':n': 3,
          ':s': { generation: 1, location: segment, notes: 3 },
        },
      }),
    );

    const out = await admin('--bucket', process.env.BUCKET_NAME!, 'search', 'upgrade');
    expect(out.upgraded).toContainEqual({ workspace, notes: 12 });
    expect(await sameNotes(workspace)).toBe(true);
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: config.tableName, Key: searchKeys.index(workspace) }),
    );
    expect(Item).not.toHaveProperty('location');
    expect(Item).not.toHaveProperty('s03');
    expect(Object.keys(Item ?? {}).filter((k) => /^f\d\d$/.test(k)).length).toBeGreaterThan(0);
    for (const Key of [location, segment])
      await expect(
        s3Client().send(new GetObjectCommand({ Bucket: config.bucketName, Key })),
      ).rejects.toThrow();
    // Run again: nothing left in the old layout.
    expect(
      (await admin('--bucket', process.env.BUCKET_NAME!, 'search', 'upgrade')).upgraded,
    ).not.toContainEqual(expect.objectContaining({ workspace }));
  }, 300_000);
});
