// The search engine of this design: each workspace's MiniSearch index (./engine.ts), loaded from the
// index store and kept loaded between searches (the least recently used dropped beyond
// CACHED_INDEXES); a head naming a newer generation than the one loaded reloads it.
import { NoteIndex } from './engine.ts';
import type { Query, Workspace } from './model.ts';
import type { CandidateFinder, IndexHead, IndexStore, WorkspaceCandidate } from './ports.ts';

/** Indexes kept loaded (the least recently used is dropped beyond this). */
const CACHED_INDEXES = 16;

interface Loaded {
  generation: number;
  index: NoteIndex;
}

export class LoadedIndexes implements CandidateFinder {
  private readonly cache = new Map<Workspace, Loaded>();
  constructor(private readonly indexes: Pick<IndexStore, 'heads' | 'load'>) {}

  async find(
    workspaces: Workspace[],
    query: Query,
    filter: { tag?: string; folderId?: string },
  ): Promise<WorkspaceCandidate[]> {
    const out: WorkspaceCandidate[] = [];
    for (const [workspace, index] of await this.loaded(workspaces))
      for (const c of index.search(query, filter)) out.push({ ...c, workspace });
    return out;
  }

  /** Each workspace's loaded index (workspaces without one have no notes yet). */
  private async loaded(workspaces: Workspace[]): Promise<Map<Workspace, NoteIndex>> {
    const heads = await this.indexes.heads(workspaces);
    const out = new Map<Workspace, NoteIndex>();
    await Promise.all(
      [...heads.values()].map(async (head) => {
        const index = await this.load(head);
        if (index) out.set(head.workspace, index);
      }),
    );
    return out;
  }

  private async load(head: IndexHead, retried = false): Promise<NoteIndex | undefined> {
    const cached = this.cache.get(head.workspace);
    if (cached && cached.generation >= head.generation) {
      this.cache.delete(head.workspace);
      this.cache.set(head.workspace, cached);
      return cached.index;
    }
    const data = await this.indexes.load(head);
    if (data === undefined) {
      // Replaced since its head was read: read the head again, once.
      const newer = (await this.indexes.heads([head.workspace])).get(head.workspace);
      return newer && !retried ? this.load(newer, true) : cached?.index;
    }
    const index = NoteIndex.fromJSON(data);
    this.cache.delete(head.workspace);
    this.cache.set(head.workspace, { generation: head.generation, index });
    while (this.cache.size > CACHED_INDEXES) this.cache.delete(this.cache.keys().next().value!);
    return index;
  }
}
