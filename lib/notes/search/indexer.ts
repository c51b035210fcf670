// Keeps each workspace's index equal to the table. Told which notes of a workspace changed (by the
// table's stream, never by the write path), it reads each of them from the table now and puts it in
// the index, or takes it out when it is gone, trashed or in another workspace; so the order in which
// changes arrive does not matter, and applying one twice changes nothing. Two indexers of a workspace
// at once cannot lose each other's edits: a save is conditional on the generation read (IndexStore),
// and the loser applies its notes again to the winner's index.
// Each note is in one segment of the index (model.ts, segmentOf): a batch loads, changes and stores
// only the segments its notes are in, each conditionally on its own generation.
// A rebuild reads every note of the workspace into new segments (checkpointed, so a rebuild stopped
// halfway resumes), then reconciles each with the live one: every note on which the two disagree
// (changed while the rebuild ran) is read again, and the result replaces the live segment conditionally.
import { Unavailable } from '../../domain/errors.ts';
import { AGAIN, type RetryPolicy, retryOnConflict } from '../../domain/retry.ts';
import { NoteIndex } from './engine.ts';
import { SEGMENTS, segmentOf, type Workspace, workspaceOf } from './model.ts';
import type { IndexHead, IndexStore, NoteSource } from './ports.ts';
import type { StoredNote } from '../kernel/ports.ts';

/** Saves attempted before giving up (the stream retries the batch). */
const SAVE_ATTEMPTS = 16;
/** A lost save waits up to this many ms per attempt so far (random: racers spread out). */
const BACKOFF_MS = 50;
/** Notes read from the table at once (BatchGetItem requests of 50 notes, in parallel). */
const READ_AT_ONCE = 400;
/** Notes a rebuild reads between two checkpoints. */
const CHECKPOINT_EVERY = 2000;

export interface IndexerDependencies {
  indexes: IndexStore;
  notes: NoteSource;
  /** Notes a rebuild reads between two checkpoints (default CHECKPOINT_EVERY). */
  checkpointEvery?: number;
  /** Notes listed per page of a rebuild (default: the NoteSource's). */
  pageSize?: number;
  /** A lost save's wait, in ms per attempt so far (default BACKOFF_MS; 0 in unit tests: no sleeping). */
  backoffMs?: number;
}

interface Checkpoint {
  cursor?: string;
  /** Each segment's database so far, base64. */
  segments: string[];
  done: number;
}

const encode = (checkpoint: Checkpoint) => new TextEncoder().encode(JSON.stringify(checkpoint));
const decode = (data: Uint8Array): Checkpoint => JSON.parse(new TextDecoder().decode(data));
const base64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export class SearchIndexer {
  constructor(private readonly deps: IndexerDependencies) {}

  /** Puts the notes' current state into the workspace's index: each segment they are in, once. */
  async apply(workspace: Workspace, shortIds: Iterable<string>): Promise<void> {
    const ids = [...new Set(shortIds)];
    const stored = await this.read(ids);
    const bySegment = new Map<number, number[]>();
    for (const [i, id] of ids.entries())
      bySegment.set(segmentOf(id), [...(bySegment.get(segmentOf(id)) ?? []), i]);
    await Promise.all(
      [...bySegment].map(([segment, at]) =>
        this.update(workspace, segment, (index) => {
          for (const i of at) place(index, workspace, ids[i], stored[i]);
        }),
      ),
    );
  }

  /** Loads a segment, changes it, saves it conditionally; on a lost race, again on the winner's. */
  private async update(
    workspace: Workspace,
    segment: number,
    change: (index: NoteIndex) => void,
  ): Promise<void> {
    await retryOnConflict(this.saves(workspace), async () => {
      const head = await this.head(workspace, segment);
      const index = await this.current(head);
      if (!index) return AGAIN;
      try {
        change(index);
        const saved = await this.deps.indexes.save(
          workspace,
          segment,
          head,
          await index.toBytes(),
          index.size,
        );
        return saved ? undefined : AGAIN;
      } finally {
        index.close();
      }
    });
  }

  /** A segment's save: conditional on the head read; a lost one again on the winner's, after a random wait. */
  private saves(workspace: Workspace): RetryPolicy {
    const ms = this.deps.backoffMs ?? BACKOFF_MS;
    return {
      attempts: SAVE_ATTEMPTS,
      exhausted: () => new Unavailable(`the search index of ${workspace} is being changed too often; retry`),
      backoff: (made) => Math.random() * ms * made,
      sleep: (wait) => new Promise((r) => setTimeout(r, wait)),
    };
  }

  private async head(workspace: Workspace, segment: number): Promise<IndexHead | undefined> {
    return (await this.deps.indexes.heads([workspace])).get(workspace)?.find((h) => h.segment === segment);
  }

  /** The index a head names (empty without one); undefined when it was replaced meanwhile. */
  private async current(head: IndexHead | undefined): Promise<NoteIndex | undefined> {
    if (!head) return NoteIndex.empty();
    const data = await this.deps.indexes.load(head);
    return data === undefined ? undefined : NoteIndex.fromBytes(data);
  }

  /** The notes, READ_AT_ONCE at a time. */
  private async read(ids: string[]): Promise<(StoredNote | undefined)[]> {
    const out: (StoredNote | undefined)[] = [];
    for (let i = 0; i < ids.length; i += READ_AT_ONCE)
      out.push(...(await this.deps.notes.getNotes(ids.slice(i, i + READ_AT_ONCE))));
    return out;
  }

  /**
   * Rebuilds the workspace's index from the table, resuming a rebuild stopped halfway.
   * `progress` is told how many notes have been read. Returns how many notes the index holds.
   */
  async rebuild(workspace: Workspace, progress: (done: number) => void = () => {}): Promise<number> {
    const saved = await this.deps.indexes.loadCheckpoint(workspace);
    const checkpoint: Checkpoint = saved ? decode(saved) : { segments: [], done: 0 };
    const segments = await Promise.all(
      Array.from({ length: SEGMENTS }, (_, s) =>
        checkpoint.segments[s]
          ? NoteIndex.fromBytes(Buffer.from(checkpoint.segments[s], 'base64'))
          : NoteIndex.empty(),
      ),
    );
    try {
      return await this.rebuildInto(workspace, segments, checkpoint, progress);
    } finally {
      for (const index of segments) index.close();
    }
  }

  private async rebuildInto(
    workspace: Workspace,
    segments: NoteIndex[],
    checkpoint: Checkpoint,
    progress: (done: number) => void,
  ): Promise<number> {
    let { cursor, done } = checkpoint;
    let sinceCheckpoint = 0;
    do {
      const page = await this.deps.notes.listShortIds(workspace, cursor, this.deps.pageSize);
      const stored = await this.read(page.shortIds);
      for (const [i, id] of page.shortIds.entries()) place(segments[segmentOf(id)], workspace, id, stored[i]);
      ({ cursor } = page);
      done += page.shortIds.length;
      sinceCheckpoint += page.shortIds.length;
      progress(done);
      if (cursor && sinceCheckpoint >= (this.deps.checkpointEvery ?? CHECKPOINT_EVERY)) {
        const saved = await Promise.all(segments.map(async (s) => base64(await s.toBytes())));
        await this.deps.indexes.saveCheckpoint(workspace, encode({ cursor, segments: saved, done }));
        sinceCheckpoint = 0;
      }
    } while (cursor);
    let notes = 0;
    // One segment after another: each re-reads its own disagreements, READ_AT_ONCE at a time.
    for (const [s, index] of segments.entries()) notes += await this.reconcile(workspace, s, index);
    await this.deps.indexes.dropCheckpoint(workspace);
    return notes;
  }

  /** Replaces a segment by a rebuilt one, with the notes on which the two disagree read again. */
  private async reconcile(workspace: Workspace, segment: number, index: NoteIndex): Promise<number> {
    return retryOnConflict(this.saves(workspace), async () => {
      const head = await this.head(workspace, segment);
      // No live segment: nothing was indexed in it while the rebuild ran (an edit the stream has not
      // applied yet is applied after this save, from the table), so nothing to read again.
      if (!head) {
        const saved = await this.deps.indexes.save(
          workspace,
          segment,
          head,
          await index.toBytes(),
          index.size,
        );
        return saved ? index.size : AGAIN;
      }
      const live = await this.current(head);
      if (!live) return AGAIN;
      const mine = index.versions();
      let theirs: Map<string, number>;
      try {
        theirs = live.versions();
      } finally {
        live.close();
      }
      const differ = [...new Set([...mine.keys(), ...theirs.keys()])].filter(
        (id) => mine.get(id) !== theirs.get(id),
      );
      const stored = await this.read(differ);
      for (const [i, id] of differ.entries()) place(index, workspace, id, stored[i]);
      const saved = await this.deps.indexes.save(workspace, segment, head, await index.toBytes(), index.size);
      return saved ? index.size : AGAIN;
    });
  }
}

/** The note in the index if the table has it in this workspace, else out of it. */
function place(
  index: NoteIndex,
  workspace: Workspace,
  shortId: string,
  stored: StoredNote | undefined,
): void {
  if (stored && workspaceOf(stored.note) === workspace)
    index.upsert({
      shortId,
      title: stored.note.title,
      tags: stored.note.tags,
      content: stored.content,
      parentFolderId: stored.note.parentFolderId,
      version: stored.note.version,
    });
  else index.remove(shortId);
}
