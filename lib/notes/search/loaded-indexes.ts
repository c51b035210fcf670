// The search engine of this design: the segments of each workspace's index (./engine.ts), loaded from
// the index store in parallel and kept loaded between searches (the least recently used closed once
// more than CACHED_BYTES of them are loaded); a head naming a newer generation than the one loaded
// reloads that segment only. A search works out its FTS5 expression once over all the segments
// (engine.ts, planQuery), asks every segment for its best candidates within one budget of steps and
// merges them by score.
import { NoteIndex, planQuery, StepBudget } from './engine.ts';
import type { Query, Workspace } from './model.ts';
import type { CandidateFinder, Candidates, IndexHead, IndexStore, WorkspaceCandidate } from './ports.ts';

/**
 * Bytes of segments kept loaded. A loaded segment is its database file in the engine's memory (no
 * larger: docs/search.md, "Sizes"), so 128 MB of them — a workspace of 40,000 notes of 4 KB — leave
 * the search function's 512 MB room for its own work.
 */
const CACHED_BYTES = 128 * 2 ** 20;

/** Workspaces whose heads are kept beyond their freshness, at most. */
const MAX_KNOWN_HEADS = 1000;

interface Loaded {
  generation: number;
  bytes: number;
  index: NoteIndex;
}

const keyOf = (head: Pick<IndexHead, 'workspace' | 'segment'>) => `${head.workspace}#${head.segment}`;

export class LoadedIndexes implements CandidateFinder {
  private readonly cache = new Map<string, Loaded>();
  /** Searches running (a segment replaced or evicted is closed once none is: one may still use it). */
  private running = 0;
  private readonly retired: NoteIndex[] = [];
  /** Each workspace's heads, and when they were read. */
  private readonly heads = new Map<Workspace, { at: number; heads: IndexHead[] }>();

  /**
   * `headsFreshMs`: how long heads read once are used again before they are read again (0: every
   * search reads them). An edit is found once its segment is saved and the heads are read again, so
   * this adds at most that much to an edit's way into results (docs/search.md, "Fresh"); what a
   * search shows is checked against the table whatever the heads say.
   */
  constructor(
    private readonly indexes: Pick<IndexStore, 'heads' | 'load'>,
    private readonly headsFreshMs = 0,
  ) {}

  async find(
    workspaces: Workspace[],
    query: Query,
    filter: { tag?: string; folderId?: string },
    want: number,
  ): Promise<Candidates> {
    this.running += 1;
    try {
      const loaded = await this.loaded(workspaces);
      const plan = planQuery(
        loaded.map((l) => l.index),
        query,
      );
      if (!plan) return { candidates: [], total: 0, matched: [] };
      const candidates: WorkspaceCandidate[] = [];
      let total = 0;
      // One budget of steps for the whole search, whatever the segments it matches.
      const budget = new StepBudget();
      for (const { workspace, index } of loaded) {
        const found = index.match(plan.match, filter, want, budget);
        for (const c of found.candidates) candidates.push({ ...c, workspace });
        total += found.total;
      }
      candidates.sort((a, b) => b.score - a.score || a.shortId.localeCompare(b.shortId));
      return { candidates: candidates.slice(0, want), total, matched: plan.matched };
    } finally {
      this.running -= 1;
      if (!this.running) for (const index of this.retired.splice(0)) index.close();
    }
  }

  /** Each segment of the workspaces (a workspace without a head has no notes yet). */
  private async loaded(workspaces: Workspace[]): Promise<{ workspace: Workspace; index: NoteIndex }[]> {
    const heads = await this.headsOf(workspaces);
    const loaded = await Promise.all(
      heads.map(async (head) => ({ workspace: head.workspace, index: await this.load(head) })),
    );
    this.evict(new Set(heads.map(keyOf)));
    return loaded.filter((l): l is { workspace: Workspace; index: NoteIndex } => l.index !== undefined);
  }

  /** The workspaces' segment heads: read again unless all were read less than headsFreshMs ago. */
  private async headsOf(workspaces: Workspace[]): Promise<IndexHead[]> {
    const now = Date.now();
    const known = workspaces.map((w) => this.heads.get(w));
    if (known.every((k) => k && now - k.at < this.headsFreshMs)) return known.flatMap((k) => k!.heads);
    const read = await this.indexes.heads(workspaces);
    // Heads no longer fresh are only worth their memory while few: a function serves many users.
    if (this.heads.size > MAX_KNOWN_HEADS)
      for (const [w, k] of this.heads) if (now - k.at >= this.headsFreshMs) this.heads.delete(w);
    for (const w of workspaces) this.heads.set(w, { at: now, heads: read.get(w) ?? [] });
    return [...read.values()].flat();
  }

  private async load(head: IndexHead, retried = false): Promise<NoteIndex | undefined> {
    const key = keyOf(head);
    const cached = this.cache.get(key);
    if (cached && cached.generation >= head.generation) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached.index;
    }
    const data = await this.indexes.load(head);
    if (data === undefined) {
      // Replaced since its head was read: read the head again, once.
      const newer = (await this.indexes.heads([head.workspace]))
        .get(head.workspace)
        ?.find((h) => h.segment === head.segment);
      return newer && !retried ? this.load(newer, true) : cached?.index;
    }
    const index = await NoteIndex.fromBytes(data);
    // Another search of this function may have loaded it meanwhile: the newer one stays.
    const now = this.cache.get(key);
    if (now && now.generation >= head.generation) {
      this.retired.push(index);
      return now.index;
    }
    if (now) this.retired.push(now.index);
    this.cache.delete(key);
    this.cache.set(key, { generation: head.generation, bytes: data.byteLength, index });
    return index;
  }

  /** Closes the least recently used segments beyond CACHED_BYTES, never one this search uses. */
  private evict(using: Set<string>): void {
    let bytes = 0;
    for (const l of this.cache.values()) bytes += l.bytes;
    for (const [key, l] of this.cache) {
      if (bytes <= CACHED_BYTES) return;
      if (using.has(key)) continue;
      this.cache.delete(key);
      this.retired.push(l.index);
      bytes -= l.bytes;
    }
  }
}
