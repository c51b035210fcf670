// The search ports in memory, for the domain's unit tests: an index store that keeps each segment's
// generations as the S3 one does (a save is conditional on the generation read; a replaced
// generation's object is gone), and a note source over any NotesStore (the memory one in tests).
import type { NotesStore } from '../../kernel/ports.ts';
import type { Workspace } from '../model.ts';
import type { IndexHead, IndexStore, NoteSource } from '../ports.ts';

export class MemoryIndexStore implements IndexStore {
  private readonly heads_ = new Map<Workspace, Map<number, IndexHead>>();
  private readonly objects = new Map<string, Uint8Array>();
  private readonly checkpoints = new Map<Workspace, Uint8Array>();
  /** Saves that moved a head (what an edit costs the store: one object and one head write each). */
  saves = 0;

  async heads(workspaces: Workspace[]): Promise<Map<Workspace, IndexHead[]>> {
    const out = new Map<Workspace, IndexHead[]>();
    for (const w of workspaces) {
      const segments = this.heads_.get(w);
      if (segments)
        out.set(
          w,
          [...segments.values()].map((h) => ({ ...h })),
        );
    }
    return out;
  }

  async load(head: IndexHead): Promise<Uint8Array | undefined> {
    return this.objects.get(head.location);
  }

  async save(
    workspace: Workspace,
    segment: number,
    previous: IndexHead | undefined,
    data: Uint8Array,
    notes: number,
  ): Promise<IndexHead | undefined> {
    const segments = this.heads_.get(workspace) ?? new Map<number, IndexHead>();
    const current = segments.get(segment);
    if (current?.generation !== previous?.generation) return undefined;
    const generation = (previous?.generation ?? 0) + 1;
    const head: IndexHead = {
      workspace,
      segment,
      generation,
      location: `${workspace}/${segment}/${generation}`,
      notes,
    };
    this.objects.set(head.location, data);
    if (current) this.objects.delete(current.location);
    segments.set(segment, head);
    this.heads_.set(workspace, segments);
    this.saves += 1;
    return { ...head };
  }

  async loadCheckpoint(workspace: Workspace): Promise<Uint8Array | undefined> {
    return this.checkpoints.get(workspace);
  }

  async saveCheckpoint(workspace: Workspace, data: Uint8Array): Promise<void> {
    this.checkpoints.set(workspace, data);
  }

  async dropCheckpoint(workspace: Workspace): Promise<void> {
    this.checkpoints.delete(workspace);
  }
}

/** A workspace's notes from a NotesStore: the cursor is the position in its listing. */
export function storeNoteSource(store: Pick<NotesStore, 'getNote' | 'listNotes'>): NoteSource {
  return {
    getNotes: (shortIds) => Promise.all(shortIds.map((id) => store.getNote(id))),
    async listShortIds(workspace, cursor, pageSize = 200) {
      const owner = workspace.startsWith('team:')
        ? { teamPath: workspace.slice(5) }
        : { userId: workspace.slice(5) };
      const all = (await store.listNotes(owner)).map((n) => n.shortId).sort();
      const start = cursor ? Number(cursor) : 0;
      const end = start + pageSize;
      return { shortIds: all.slice(start, end), ...(end < all.length ? { cursor: String(end) } : {}) };
    },
  };
}
