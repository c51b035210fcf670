// The search service and its indexer over in-memory adapters (the Notes store, the identity
// directory, an index store that keeps segments' generations as the S3 one does): who finds what,
// a note gone from the table is never a hit while the index still holds it, an edit changes one
// segment, a pathological query stays bounded, and however edits arrive the index ends equal to a
// rebuild. The same behaviour through the runner, DynamoDB Local and the S3 emulator:
// test/notes/search.test.ts and test/notes/search-index.test.ts.
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { BadInput, Forbidden, NotFound } from '../../../lib/domain/errors.ts';
import { MemoryIndexStore, storeNoteSource } from '../../../lib/notes/search/adapters/memory-index-store.ts';
import { MAX_PREFIX_EXPANSIONS, NoteIndex, PREFIX_POSTINGS } from '../../../lib/notes/search/engine.ts';
import { SearchIndexer } from '../../../lib/notes/search/indexer.ts';
import { LoadedIndexes } from '../../../lib/notes/search/loaded-indexes.ts';
import {
  MAX_QUERY_TERMS,
  type Workspace,
  parseQuery,
  segmentOf,
  teamWorkspace,
  userWorkspace,
} from '../../../lib/notes/search/model.ts';
import { SearchService } from '../../../lib/notes/search/service.ts';
import { type CorpusNote, corpus } from '../../../infra/bench/search-corpus.ts';
import { plainText, termsOf } from '../../../lib/notes/search/text.ts';
import { notesWorld } from './fixture.ts';

type World = Awaited<ReturnType<typeof notesWorld>>;

/** A segment of the corpus's notes (`n0`, `n1`, ...), each at the version `version(i)` gives it. */
async function indexOf(notes: CorpusNote[], version: (i: number) => number): Promise<NoteIndex> {
  const index = await NoteIndex.empty();
  for (const [i, n] of notes.entries())
    index.upsert({
      shortId: `n${i}`,
      title: n.title,
      tags: n.tags,
      content: n.content,
      parentFolderId: null,
      version: version(i),
    });
  return index;
}

async function searchWorld() {
  const world = await notesWorld();
  const indexes = new MemoryIndexStore();
  const source = storeNoteSource(world.store);
  // A lost save retries at once (a macrotask later, so racers still interleave): no test sleeps.
  const indexer = new SearchIndexer({ indexes, notes: source, backoffMs: 0 });
  const service = new SearchService({
    directory: world.identity,
    candidates: new LoadedIndexes(indexes),
    notes: source,
  });
  const both = await world.identity.createTeam({ ownerId: world.owner, path: 'both', name: 'Both' });
  await world.identity.addMember(both.path, world.other);
  const mine = await world.identity.createTeam({ ownerId: world.owner, path: 'mine', name: 'Mine' });
  const search = async (
    userId: string,
    q: string,
    more: Partial<Parameters<SearchService['search']>[1]> = {},
  ) => service.search(userId, { q, page: 1, limit: 20, ...more });
  const ids = async (userId: string, q: string, more = {}) =>
    (await search(userId, q, more)).hits.map((h) => h.note.shortId).sort();
  return { ...world, indexes, indexer, service, both, mine, search, ids };
}

/** Creates a note and indexes it as the stream would. */
async function write(
  w: World & { indexer: SearchIndexer },
  userId: string,
  content: string,
  teamPath?: string,
): Promise<string> {
  const { note } = await w.notes.createNote(userId, { content }, teamPath);
  await w.indexer.apply(teamPath ? teamWorkspace(teamPath) : userWorkspace(userId), [note.shortId]);
  return note.shortId;
}

// Each test's work is bounded by its sizes, not by a time: the timeout only catches a hang. A
// machine whose cores are shared by many processes runs these several times slower than an idle
// one (the property below: 0.8 s idle, 10 s at a load average of 20), so the timeout is not 5 s.
describe('search service (in memory)', { timeout: 60_000 }, () => {
  let w: Awaited<ReturnType<typeof searchWorld>>;
  beforeEach(async () => {
    w = await searchWorld();
  });

  it("finds the caller's notes and their teams' notes, and nobody else's", async () => {
    const own = await write(w, w.owner, '# Owner only\n\nkubernetes at home');
    const shared = await write(w, w.owner, '# Shared\n\nkubernetes for both', w.both.path);
    const team = await write(w, w.owner, '# Team\n\nkubernetes for mine', w.mine.path);
    const others = await write(w, w.other, '# Other\n\nkubernetes elsewhere');
    expect(await w.ids(w.owner, 'kubernetes')).toEqual([own, shared, team].sort());
    expect(await w.ids(w.other, 'kubernetes')).toEqual([shared, others].sort());
    expect(await w.ids(w.other, 'kubernetes', { team: w.both.path })).toEqual([shared]);
    await expect(w.search(w.other, 'kubernetes', { team: w.mine.path })).rejects.toThrow(Forbidden);
    await expect(w.search(w.other, 'kubernetes', { team: 'nowhere' })).rejects.toThrow(NotFound);
    await expect(w.search(w.other, '*** ???')).rejects.toThrow(BadInput);
  });

  it('never shows a note the table no longer has, even while the index still holds it', async () => {
    const gone = await write(w, w.owner, 'ephemeral words here');
    const kept = await write(w, w.owner, 'ephemeral words kept');
    await w.notes.deleteNote(w.owner, gone); // the stream has not told the indexer yet
    const page = await w.search(w.owner, 'ephemeral');
    expect(page.hits.map((h) => h.note.shortId)).toEqual([kept]);
  });

  it('answers each hit with a snippet whose highlights are the matched words', async () => {
    await write(
      w,
      w.owner,
      '# Notes\n\nWe deploy the **Résumé** service with [the runbook](https://x.example/hidden).',
    );
    const [hit] = (await w.search(w.owner, 'resume runb')).hits;
    const marked = hit.snippet.highlights.map((h) => hit.snippet.text.slice(h.offset, h.offset + h.length));
    expect(marked).toEqual(['Résumé', 'runbook']);
    expect(hit.snippet.text).not.toContain('hidden');
  });

  it('an edit reaches the index by one segment save, and the next search sees it', async () => {
    const id = await write(w, w.owner, 'before the change');
    expect(await w.ids(w.owner, 'before')).toEqual([id]);
    const saves = w.indexes.saves;
    await w.notes.updateNote(w.owner, id, { content: 'after the change' });
    await w.indexer.apply(userWorkspace(w.owner), [id]);
    expect(w.indexes.saves - saves).toBe(1);
    expect(await w.ids(w.owner, 'after')).toEqual([id]);
    expect(await w.ids(w.owner, 'before')).toEqual([]);
  });

  it('reads the heads at most once per freshness window, and finds an edit once the window has passed', async () => {
    const id = await write(w, w.owner, 'window before');
    let reads = 0;
    const counting = {
      heads: (ws: Workspace[]) => {
        reads += 1;
        return w.indexes.heads(ws);
      },
      load: w.indexes.load.bind(w.indexes),
    };
    const windowed = new SearchService({
      directory: w.identity,
      candidates: new LoadedIndexes(counting, 300),
      notes: storeNoteSource(w.store),
    });
    const ids = async (q: string) =>
      (await windowed.search(w.owner, { q, page: 1, limit: 20 })).hits.map((h) => h.note.shortId);
    expect(await ids('before')).toEqual([id]);
    expect(await ids('window')).toEqual([id]);
    expect(reads).toBe(1); // the second search used the heads the first one read
    await w.notes.updateNote(w.owner, id, { content: 'window after' });
    await w.indexer.apply(userWorkspace(w.owner), [id]);
    await new Promise((r) => setTimeout(r, 350));
    expect(await ids('after')).toEqual([id]);
    expect(await ids('before')).toEqual([]);
    expect(reads).toBe(2);
  });

  it('a pathological query answers: at most MAX_QUERY_TERMS terms, a prefix expands to a bounded set of the commonest words', async () => {
    const { notes } = corpus(120, 1000);
    const index = await indexOf(notes, () => 1);
    const loaded = await NoteIndex.fromBytes(await index.toBytes());
    index.close();
    const k = loaded.expansions('k');
    expect(k.length).toBeGreaterThan(1);
    expect(k.length).toBeLessThanOrEqual(MAX_PREFIX_EXPANSIONS);
    expect(k.every((t) => t.startsWith('k'))).toBe(true);
    // A prefix's most common completions: each kept word is in at least as many notes as any left out.
    const df = new Map<string, number>();
    for (const n of notes)
      for (const t of new Set(termsOf(`${n.title}\n${n.tags.join('\n')}\n${plainText(n.content)}`)))
        if (t.startsWith('k')) df.set(t, (df.get(t) ?? 0) + 1);
    const leftOut = [...df].filter(([t]) => t !== 'k' && !k.includes(t)).map(([, c]) => c);
    expect(leftOut.length).toBeGreaterThan(0);
    expect(Math.min(...k.map((t) => df.get(t)!))).toBeGreaterThanOrEqual(Math.max(...leftOut));
    // Their postings, summed, are at most PREFIX_POSTINGS times the notes: a bounded amount of work.
    expect(k.reduce((n, t) => n + df.get(t)!, 0)).toBeLessThanOrEqual(PREFIX_POSTINGS * notes.length);
    const wild = Array.from({ length: 200 }, (_, i) => `${'kr'[i % 2]}*`).join(' ');
    expect(parseQuery(wild).terms).toHaveLength(MAX_QUERY_TERMS);
    const found = loaded.search(parseQuery(wild));
    expect(found.matched.length).toBeLessThanOrEqual(2 + MAX_PREFIX_EXPANSIONS);
    loaded.close();
  });

  it('a segment loaded from its saved bytes answers every query as the one it was saved from', async () => {
    const { notes, words } = corpus(60, 800);
    const index = await indexOf(notes, (i) => i);
    index.remove('n7');
    const loaded = await NoteIndex.fromBytes(await index.toBytes());
    expect(loaded.versions()).toEqual(index.versions());
    for (const q of [
      words[0],
      `${words[1]} ${words[2]}`,
      words[3].slice(0, 2),
      `${words[4]}x`,
      '学习',
      `"${words[5]} ${words[6]}"`,
    ]) {
      const found = index.search(parseQuery(q));
      expect(loaded.search(parseQuery(q))).toEqual(found);
    }
    expect(index.search(parseQuery(words[0])).total).toBeGreaterThan(0);
    index.close();
    loaded.close();
  });

  it('however edits arrive (repeated, out of order, racing), the index ends equal to a rebuild', async () => {
    // fast-check chooses the edits, the order their batches arrive in, how many race at once and which
    // notes are deleted. A run's work is bounded by these sizes (at most NOTES notes, MAX_EDITS edits,
    // RUNS runs), never by the time it takes: the property is the same on a busy machine.
    const NOTES = 10;
    const MAX_EDITS = 16;
    const RUNS = 5;
    const edit = fc.record({ note: fc.nat(NOTES - 1), also: fc.nat(NOTES - 1), order: fc.nat() });
    await fc.assert(
      fc.asyncProperty(
        fc.array(edit, { minLength: 1, maxLength: MAX_EDITS }),
        fc.uniqueArray(fc.nat(NOTES - 1), { maxLength: NOTES / 2 }),
        fc.integer({ min: 1, max: 4 }),
        async (edits, deleted, racing) => {
          const w = await searchWorld();
          const workspace: Workspace = teamWorkspace(w.both.path);
          const ids: string[] = [];
          for (let i = 0; i < NOTES; i += 1)
            ids.push(
              (await w.notes.createNote(w.owner, { content: `note n${i}v0` }, w.both.path)).note.shortId,
            );
          const last = ids.map(() => 0);
          // The creations arrive too, in any order (an edit's batch may come before its note's creation's).
          const batches = ids.map((id, i) => ({ batch: [id], order: edits[i % edits.length].order + i }));
          for (const { note, also, order } of edits) {
            last[note] += 1;
            await w.notes.updateNote(
              w.owner,
              ids[note],
              { content: `note n${note}v${last[note]}` },
              { teamPath: w.both.path },
            );
            batches.push({ batch: [ids[note], ids[also]], order });
          }
          for (const i of deleted) await w.notes.deleteNote(w.owner, ids[i], w.both.path);
          // Every batch once more (a stream delivers at least once), all in the order drawn, `racing` at a time.
          const arriving = [...batches, ...batches].sort((a, b) => a.order - b.order).map((b) => b.batch);
          for (let b = 0; b < arriving.length; b += racing)
            await Promise.all(
              arriving.slice(b, b + racing).map((batch) => w.indexer.apply(workspace, batch)),
            );
          await w.indexer.apply(
            workspace,
            deleted.map((i) => ids[i]),
          );

          const versionsOf = async (store: MemoryIndexStore) => {
            const heads = (await store.heads([workspace])).get(workspace) ?? [];
            const out = new Map<string, number>();
            for (const h of heads) {
              const segment = await NoteIndex.fromBytes((await store.load(h))!);
              for (const [id, v] of segment.versions()) {
                expect(segmentOf(id)).toBe(h.segment);
                out.set(id, v);
              }
              segment.close();
            }
            return out;
          };
          const rebuilt = new MemoryIndexStore();
          await new SearchIndexer({ indexes: rebuilt, notes: storeNoteSource(w.store) }).rebuild(workspace);
          const expected = await versionsOf(rebuilt);
          expect(expected.size).toBe(NOTES - deleted.length);
          expect(await versionsOf(w.indexes)).toEqual(expected);
          // Each note is found by its last words only; a deleted one by none.
          for (const [i, id] of ids.entries()) {
            const kept = !deleted.includes(i);
            expect(await w.ids(w.owner, `"n${i}v${last[i]}"`)).toEqual(kept ? [id] : []);
            if (last[i] > 0) expect(await w.ids(w.owner, `"n${i}v0"`)).toEqual([]);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
