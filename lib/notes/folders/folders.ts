// Folders of a user's or a team's workspace (HackMD API v1: ApiFolder, ApiFolderOrder, FolderPath).
// The domain: rules, the store port, and the folder paths of notes. Decisions (docs/notes.md):
// - nesting depth at most MAX_FOLDER_DEPTH (a folder at the root has depth 1), at most MAX_FOLDERS
//   folders per workspace (so one Query reads the whole tree);
// - every structural change (create, move, delete) is conditional on the tree's version, so
//   concurrent moves can never make a cycle or exceed the depth limit; a move making a cycle is 422;
// - deleting a folder that still holds sub-folders or notes is refused (409); empty it first;
// - notes point at their folder (parentFolderId); a folder's path is computed from the tree when a
//   note is read, so moving or renaming a folder never rewrites its notes.
import type { NoteOwnerKey } from '../../data/keys.ts';
import type { Clock } from '../../domain/clock.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '../../domain/errors.ts';
import type { Ids } from '../../domain/ids.ts';
import { AGAIN, type RetryPolicy, retryOnConflict } from '../../domain/retry.ts';
import type { FolderPath, NoteRecord } from '../kernel/model.ts';
import type { Directory } from '../kernel/ports.ts';

export const MAX_FOLDER_DEPTH = 10;
export const MAX_FOLDERS = 500;
export const MAX_FOLDER_NAME = 100;
export const MAX_FOLDER_DESCRIPTION = 1000;
export const DEFAULT_FOLDER_NAME = 'Untitled';
/** The ApiFolderOrder key of the workspace's top level. */
export const ROOT = 'root';
const WRITE_ATTEMPTS = 3;

export interface FolderRecord {
  id: string;
  name: string;
  description: string | null;
  icon: string | null;
  color: string | null;
  parentFolderId: string | null;
  createdAt: number;
  updatedAt: number;
  /** Notes directly in the folder (kept by the notes' own writes). */
  noteCount: number;
}

export type FolderOrder = Record<string, string[]>;

export interface FolderFields {
  name?: string;
  description?: string | null;
  icon?: string | null;
  color?: string | null;
  parentFolderId?: string | null;
}

/** HackMD's FolderPath, a note's breadcrumb segment: the kernel's (every note response carries them). */
export type { FolderPath };

export interface FolderTree {
  folders: FolderRecord[];
  /** Version of the tree's structure; structural writes are conditional on it. */
  version: number;
  /** The ordering stored by the user asked for, if any. */
  order?: FolderOrder;
}

export type FolderDeletion = 'deleted' | 'changed' | 'not-empty';

/** Storage port (lib/notes/folders/adapters/dynamo-folders.ts, memory-folders.ts). */
export interface FolderStore {
  /** Every folder of the workspace, the tree version and `orderOf`'s ordering: one Query. */
  tree(owner: NoteOwnerKey, orderOf?: string): Promise<FolderTree>;
  get(owner: NoteOwnerKey, folderId: string): Promise<FolderRecord | undefined>;
  /** False when the tree changed since `version` was read. */
  create(owner: NoteOwnerKey, folder: FolderRecord, version: number): Promise<boolean>;
  /**
   * Sets the fields of `changes` (all but parentFolderId when `version` is undefined). False when the
   * folder is gone or (with `version`) the tree changed.
   */
  update(
    owner: NoteOwnerKey,
    folderId: string,
    changes: FolderFields & { updatedAt: number },
    version?: number,
  ): Promise<boolean>;
  /** Deletes the folder if it holds no note and the tree is still at `version`. */
  delete(owner: NoteOwnerKey, folderId: string, version: number): Promise<FolderDeletion>;
  putOrder(owner: NoteOwnerKey, userId: string, order: FolderOrder): Promise<void>;
  /** The folder's notes, most recently changed first (one bounded Query). */
  notesIn(folderId: string, limit: number): Promise<NoteRecord[]>;
}

type Access = Pick<Directory, 'isMember' | 'getTeam'>;

const invalid = (field: string, message: string) =>
  new Invalid('One or more fields are invalid', { fields: [{ field, message }] });
/** A workspace's folder tree: written conditionally on the version read, again on a fresh read. */
const TREE_RETRY: RetryPolicy = {
  attempts: WRITE_ATTEMPTS,
  exhausted: () => new Conflict('The folders are being changed concurrently; retry the request'),
};
const byCreation = (a: FolderRecord, b: FolderRecord) =>
  a.createdAt - b.createdAt || a.id.localeCompare(b.id);

/** Depth of a folder (1 at the root) within `byId`. */
function depthOf(id: string, byId: Map<string, FolderRecord>): number {
  let depth = 0;
  for (let f = byId.get(id); f; f = f.parentFolderId ? byId.get(f.parentFolderId) : undefined) {
    depth += 1;
    if (depth > MAX_FOLDERS) break; // a corrupt (cyclic) tree cannot loop forever
  }
  return depth;
}

/** Levels of the subtree rooted at `id` (1 for a folder without sub-folders). */
function heightOf(id: string, children: Map<string, FolderRecord[]>): number {
  const kids = children.get(id) ?? [];
  return 1 + Math.max(0, ...kids.map((k) => heightOf(k.id, children)));
}

function childrenOf(folders: FolderRecord[]): Map<string, FolderRecord[]> {
  const children = new Map<string, FolderRecord[]>();
  for (const f of [...folders].sort(byCreation)) {
    const key = f.parentFolderId ?? ROOT;
    children.set(key, [...(children.get(key) ?? []), f]);
  }
  return children;
}

/** The breadcrumb from the top level down to `folderId` (empty for none or an unknown folder). */
export function folderPathOf(folderId: string | null, byId: Map<string, FolderRecord>): FolderPath[] {
  const path: FolderPath[] = [];
  for (
    let f = folderId ? byId.get(folderId) : undefined;
    f && path.length < MAX_FOLDER_DEPTH;
    f = f.parentFolderId ? byId.get(f.parentFolderId) : undefined
  ) {
    path.unshift({
      id: f.id,
      name: f.name,
      icon: f.icon ?? '',
      color: f.color ?? '',
      parentId: f.parentFolderId ?? '',
      clientId: f.id,
    });
  }
  return path;
}

/** The stored ordering completed with the tree: every folder once, under its parent; unknown ids dropped. */
export function normalizeOrder(folders: FolderRecord[], stored: FolderOrder = {}): FolderOrder {
  const children = childrenOf(folders);
  const order: FolderOrder = { [ROOT]: [] };
  for (const [parent, kids] of children) {
    const ids = new Set(kids.map((k) => k.id));
    const listed = [...new Set(stored[parent] ?? [])].filter((id) => ids.has(id));
    order[parent] = [...listed, ...kids.map((k) => k.id).filter((id) => !listed.includes(id))];
  }
  return order;
}

export class FolderService {
  constructor(
    private readonly store: FolderStore,
    private readonly directory: Access,
    private readonly clock: Clock,
    private readonly ids: Ids,
  ) {}

  async list(userId: string, teamPath?: string): Promise<FolderRecord[]> {
    const owner = await this.owner(userId, teamPath);
    return (await this.store.tree(owner)).folders.sort(byCreation);
  }

  async get(userId: string, folderId: string, teamPath?: string): Promise<FolderRecord> {
    const owner = await this.owner(userId, teamPath);
    const folder = await this.store.get(owner, folderId);
    if (!folder) throw new NotFound('The folder does not exist');
    return folder;
  }

  async create(userId: string, input: FolderFields, teamPath?: string): Promise<FolderRecord> {
    const owner = await this.owner(userId, teamPath);
    return retryOnConflict(TREE_RETRY, async () => {
      const tree = await this.store.tree(owner);
      if (tree.folders.length >= MAX_FOLDERS)
        throw invalid('parentFolderId', `a workspace holds at most ${MAX_FOLDERS} folders`);
      const parentFolderId = input.parentFolderId || null;
      const byId = new Map(tree.folders.map((f) => [f.id, f]));
      if (parentFolderId && !byId.has(parentFolderId))
        throw invalid('parentFolderId', 'no such folder in this workspace');
      if (parentFolderId && depthOf(parentFolderId, byId) + 1 > MAX_FOLDER_DEPTH) {
        throw invalid('parentFolderId', `folders nest at most ${MAX_FOLDER_DEPTH} levels deep`);
      }
      const now = this.clock.now();
      const folder: FolderRecord = {
        id: this.ids.uuid(),
        name: input.name || DEFAULT_FOLDER_NAME,
        description: input.description ?? null,
        icon: input.icon ?? null,
        color: input.color ?? null,
        parentFolderId,
        createdAt: now,
        updatedAt: now,
        noteCount: 0,
      };
      return (await this.store.create(owner, folder, tree.version)) ? folder : AGAIN;
    });
  }

  async update(
    userId: string,
    folderId: string,
    changes: FolderFields,
    teamPath?: string,
  ): Promise<FolderRecord> {
    const owner = await this.owner(userId, teamPath);
    return retryOnConflict(TREE_RETRY, async () => {
      const tree = await this.store.tree(owner);
      const byId = new Map(tree.folders.map((f) => [f.id, f]));
      const current = byId.get(folderId);
      if (!current) throw new NotFound('The folder does not exist');
      const fields: FolderFields & { updatedAt: number } = { ...changes, updatedAt: this.clock.now() };
      if (changes.name !== undefined) fields.name = changes.name || DEFAULT_FOLDER_NAME;
      let version: number | undefined;
      if (changes.parentFolderId !== undefined) {
        fields.parentFolderId = changes.parentFolderId || null;
        if (fields.parentFolderId !== current.parentFolderId) {
          this.assertMove(folderId, fields.parentFolderId, tree.folders);
          version = tree.version;
        }
      }
      if (version === undefined) delete fields.parentFolderId;
      if (await this.store.update(owner, folderId, fields, version))
        return { ...current, ...fields } as FolderRecord;
      if (version === undefined) throw new NotFound('The folder does not exist');
      return AGAIN;
    });
  }

  async delete(userId: string, folderId: string, teamPath?: string): Promise<void> {
    const owner = await this.owner(userId, teamPath);
    await retryOnConflict(TREE_RETRY, async () => {
      const tree = await this.store.tree(owner);
      if (!tree.folders.some((f) => f.id === folderId)) throw new NotFound('The folder does not exist');
      const subFolders = tree.folders.filter((f) => f.parentFolderId === folderId).length;
      if (subFolders) throw notEmpty(`it holds ${subFolders} sub-folder(s)`);
      const outcome = await this.store.delete(owner, folderId, tree.version);
      if (outcome === 'not-empty') throw notEmpty('it holds notes');
      return outcome === 'deleted' ? undefined : AGAIN;
    });
  }

  async getOrder(userId: string, teamPath?: string): Promise<FolderOrder> {
    const owner = await this.owner(userId, teamPath);
    const tree = await this.store.tree(owner, userId);
    return normalizeOrder(tree.folders, tree.order);
  }

  /** Replaces the caller's ordering; every id must be a folder listed under its own parent (or root). */
  async putOrder(userId: string, order: FolderOrder, teamPath?: string): Promise<void> {
    const owner = await this.owner(userId, teamPath);
    const tree = await this.store.tree(owner);
    const byId = new Map(tree.folders.map((f) => [f.id, f]));
    for (const [parent, ids] of Object.entries(order)) {
      const field = `order.${parent}`;
      if (parent !== ROOT && !byId.has(parent)) throw invalid(field, 'no such folder in this workspace');
      if (new Set(ids).size !== ids.length) throw invalid(field, 'lists a folder twice');
      const stranger = ids.find(
        (id) => (byId.get(id)?.parentFolderId ?? (byId.has(id) ? ROOT : undefined)) !== parent,
      );
      if (stranger) throw invalid(field, `"${stranger}" is not a folder directly under ${parent}`);
    }
    await this.store.putOrder(owner, userId, normalizeOrder(tree.folders, order));
  }

  /** The notes directly in a folder of the workspace, most recently changed first. */
  async notesIn(userId: string, folderId: string, teamPath?: string): Promise<NoteRecord[]> {
    await this.get(userId, folderId, teamPath);
    return this.store.notesIn(folderId, MAX_FOLDER_NOTES);
  }

  /**
   * FolderPath breadcrumbs of notes as `viewerId` may see them: a workspace's folders are shown to
   * its owner (personal notes) or to the team's members; others see []. One Query per workspace.
   */
  async pathsFor(viewerId: string, notes: NoteRecord[]): Promise<(note: NoteRecord) => FolderPath[]> {
    const workspaces = new Map<string, Promise<Map<string, FolderRecord> | undefined>>();
    const keyOf = (n: NoteRecord) => (n.teamPath ? `team:${n.teamPath}` : `user:${n.ownerId}`);
    for (const n of notes) {
      if (!n.parentFolderId || workspaces.has(keyOf(n))) continue;
      workspaces.set(keyOf(n), this.visibleTree(viewerId, n));
    }
    const trees = new Map<string, Map<string, FolderRecord> | undefined>();
    for (const [key, tree] of workspaces) trees.set(key, await tree);
    return (n) => folderPathOf(n.parentFolderId, trees.get(keyOf(n)) ?? new Map());
  }

  private async visibleTree(viewerId: string, n: NoteRecord): Promise<Map<string, FolderRecord> | undefined> {
    const visible = n.teamPath ? await this.directory.isMember(n.teamPath, viewerId) : n.ownerId === viewerId;
    if (!visible) return undefined;
    const tree = await this.store.tree(n.teamPath ? { teamPath: n.teamPath } : { userId: n.ownerId! });
    return new Map(tree.folders.map((f) => [f.id, f]));
  }

  /** 422 when moving `folderId` under `parentId` makes a cycle, names an unknown folder or nests too deep. */
  private assertMove(folderId: string, parentId: string | null, folders: FolderRecord[]): void {
    if (!parentId) return;
    const byId = new Map(folders.map((f) => [f.id, f]));
    if (!byId.has(parentId)) throw invalid('parentFolderId', 'no such folder in this workspace');
    for (let f = byId.get(parentId); f; f = f.parentFolderId ? byId.get(f.parentFolderId) : undefined) {
      if (f.id === folderId)
        throw invalid('parentFolderId', 'a folder cannot move into itself or one of its sub-folders');
    }
    if (depthOf(parentId, byId) + heightOf(folderId, childrenOf(folders)) > MAX_FOLDER_DEPTH) {
      throw invalid('parentFolderId', `folders nest at most ${MAX_FOLDER_DEPTH} levels deep`);
    }
  }

  /** The workspace: the caller's own, or a team's (members only: 403; unknown team: 404). */
  private async owner(userId: string, teamPath?: string): Promise<NoteOwnerKey> {
    if (!teamPath) return { userId };
    if (await this.directory.isMember(teamPath, userId)) return { teamPath };
    if (await this.directory.getTeam(teamPath))
      throw new Forbidden(`You are not a member of team "${teamPath}"`);
    throw new NotFound(`Team "${teamPath}" does not exist`);
  }
}

/** At most this many notes are listed per folder (one Query page). */
export const MAX_FOLDER_NOTES = 1000;

const notEmpty = (why: string) =>
  new Conflict(`The folder is not empty (${why}); move or delete its contents first`);

export const unknownFolder = () => invalid('parentFolderId', "no such folder in the note's workspace");

/** HackMD's ApiFolder. */
export const presentFolder = (f: FolderRecord) => ({
  id: f.id,
  name: f.name,
  description: f.description,
  icon: f.icon,
  color: f.color,
  parentFolderId: f.parentFolderId,
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
});
