// In-memory folder store for domain unit tests: the same contract as dynamo-folders.ts (tree
// version as the lock of structural writes, deletes refused while noteCount > 0).
import type { NoteOwnerKey } from '../../../data/keys.ts';
import type {
  FolderDeletion,
  FolderFields,
  FolderOrder,
  FolderRecord,
  FolderStore,
  FolderTree,
} from '../folders.ts';
import type { NoteRecord } from '../../kernel/model.ts';

interface Workspace {
  folders: Map<string, FolderRecord>;
  version: number;
  orders: Map<string, FolderOrder>;
}

const keyOf = (owner: NoteOwnerKey) =>
  'userId' in owner ? `user:${owner.userId}` : `team:${owner.teamPath}`;
const copy = <T>(v: T): T => structuredClone(v);

export class MemoryFolderStore implements FolderStore {
  private readonly workspaces = new Map<string, Workspace>();
  /** Notes by folder, as the notes store would index them (tests add them with `placeNote`). */
  private readonly notes = new Map<string, NoteRecord[]>();

  private ws(owner: NoteOwnerKey): Workspace {
    const key = keyOf(owner);
    if (!this.workspaces.has(key))
      this.workspaces.set(key, { folders: new Map(), version: 0, orders: new Map() });
    return this.workspaces.get(key)!;
  }

  async tree(owner: NoteOwnerKey, orderOf?: string): Promise<FolderTree> {
    const ws = this.ws(owner);
    return {
      folders: [...ws.folders.values()].map(copy),
      version: ws.version,
      order: orderOf ? copy(ws.orders.get(orderOf)) : undefined,
    };
  }

  async get(owner: NoteOwnerKey, folderId: string): Promise<FolderRecord | undefined> {
    return copy(this.ws(owner).folders.get(folderId));
  }

  async create(owner: NoteOwnerKey, folder: FolderRecord, version: number): Promise<boolean> {
    const ws = this.ws(owner);
    if (ws.version !== version || ws.folders.has(folder.id)) return false;
    ws.folders.set(folder.id, copy(folder));
    ws.version += 1;
    return true;
  }

  async update(
    owner: NoteOwnerKey,
    folderId: string,
    changes: FolderFields & { updatedAt: number },
    version?: number,
  ): Promise<boolean> {
    const ws = this.ws(owner);
    const folder = ws.folders.get(folderId);
    if (!folder || (version !== undefined && ws.version !== version)) return false;
    const fields = Object.entries(changes).filter(
      ([f, v]) => v !== undefined && (version !== undefined || f !== 'parentFolderId'),
    );
    Object.assign(folder, Object.fromEntries(fields));
    if (version !== undefined) ws.version += 1;
    return true;
  }

  async delete(owner: NoteOwnerKey, folderId: string, version: number): Promise<FolderDeletion> {
    const ws = this.ws(owner);
    const folder = ws.folders.get(folderId);
    if (!folder || ws.version !== version) return 'changed';
    if (folder.noteCount > 0) return 'not-empty';
    ws.folders.delete(folderId);
    ws.version += 1;
    return 'deleted';
  }

  async putOrder(owner: NoteOwnerKey, userId: string, order: FolderOrder): Promise<void> {
    this.ws(owner).orders.set(userId, copy(order));
  }

  async notesIn(folderId: string, limit: number): Promise<NoteRecord[]> {
    return (this.notes.get(folderId) ?? []).slice(0, limit).map(copy);
  }

  /** Test helper: a note now sits in the folder (what the notes store's transaction does). */
  placeNote(owner: NoteOwnerKey, note: NoteRecord): void {
    const folder = this.ws(owner).folders.get(note.parentFolderId!);
    if (!folder) throw new Error('no such folder');
    folder.noteCount += 1;
    this.notes.set(folder.id, [note, ...(this.notes.get(folder.id) ?? [])]);
  }
}
