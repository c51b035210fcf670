// The search engine of this design: the segments of each workspace's index (./engine.ts), loaded from
// the index store in parallel and kept loaded between searches (the least recently used dropped once
// more than CACHED_BYTES of them are loaded); a head naming a newer generation than the one loaded
// reloads that segment only. A search asks every segment of the workspaces and merges their hits.
import { NoteIndex } from './engine.ts';
import type { Query, Workspace } from './model.ts';
import type { CandidateFinder, IndexHead, IndexStore, WorkspaceCandidate } from './ports.ts';

/**
 * Serialized characters of the segments kept loaded (a loaded segment's heap is up to 10 times its
 * serialized size — the 16 segments of a 10,000-note workspace: 29 MB, ~300 MB of heap, docs/search.md
 * "Sizes" — so 32 MB of them fit the search function's 512 MB with room for a search's own work).
 */
const CACHED_BYTES = 32 * 2 ** 20;

interface Loaded {
  generation: number;
  bytes: number;
  index: NoteIndex;
}

const keyOf = (head: Pick<IndexHead, 'workspace' | 'segment'>) => `${head.workspace}#${head.segment}`;

export class LoadedIndexes implements CandidateFinder {
  private readonly cache = new Map<string, Loaded>();
  constructor(private readonly indexes: Pick<IndexStore, 'heads' | 'load'>) {}

  async find(
    workspaces: Workspace[],
    query: Query,
    filter: { tag?: string; folderId?: string },
  ): Promise<WorkspaceCandidate[]> {
    const out: WorkspaceCandidate[] = [];
    for (const { workspace, index } of await this.loaded(workspaces))
      for (const c of index.search(query, filter)) out.push({ ...c, workspace });
    return out;
  }

  /** Each segment of the workspaces (a workspace without a head has no notes yet). */
  private async loaded(workspaces: Workspace[]): Promise<{ workspace: Workspace; index: NoteIndex }[]> {
    const heads = [...(await this.indexes.heads(workspaces)).values()].flat();
    const loaded = await Promise.all(
      heads.map(async (head) => ({ workspace: head.workspace, index: await this.load(head) })),
    );
    this.evict(new Set(heads.map(keyOf)));
    return loaded.filter((l): l is { workspace: Workspace; index: NoteIndex } => l.index !== undefined);
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
    const index = NoteIndex.fromJSON(data);
    this.cache.delete(key);
    this.cache.set(key, { generation: head.generation, bytes: data.length, index });
    return index;
  }

  /** Drops the least recently used segments beyond CACHED_BYTES, never one this search uses. */
  private evict(using: Set<string>): void {
    let bytes = 0;
    for (const l of this.cache.values()) bytes += l.bytes;
    for (const [key, l] of this.cache) {
      if (bytes <= CACHED_BYTES) return;
      if (using.has(key)) continue;
      this.cache.delete(key);
      bytes -= l.bytes;
    }
  }
}
