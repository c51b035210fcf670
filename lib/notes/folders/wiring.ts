// The folders feature's wiring: the folder service, wired per operation and workspace kind with only
// the folder store methods that operation calls; built on first use.
import { systemClock } from '../../domain/clock.ts';
import { systemIds } from '../../domain/ids.ts';
import { once } from '../../domain/once.ts';
import { only } from '../../domain/only.ts';
import { teamAccess } from '../../identity/wiring.ts';
import type { Directory } from '../kernel/ports.ts';
import { personal } from '../kernel/wiring.ts';
import {
  createFolder,
  deleteFolder,
  folderTree,
  getFolder,
  notesInFolder,
  putFolderOrder,
  updateFolder,
} from './adapters/dynamo-folders.ts';
import { type FolderStore, FolderService } from './folders.ts';

/**
 * The folder service with only these folder store methods (lib/domain/only.ts; every other one
 * rejects), so each function's bundle and role hold only the commands its operation sends: the tree
 * is one Query, a folder one GetItem; create, update and delete are one TransactWriteItems each
 * (conditional on the tree's version), the caller's order one PutItem.
 */
const folderService = (store: Partial<FolderStore>, teams: Pick<Directory, 'isMember' | 'getTeam'>) =>
  new FolderService(only<FolderStore>('folders', store), teams, systemClock, systemIds);

/** ListFolders, GetFolderOrder: the tree. */
export const folderReader = /* @__PURE__ */ once(() => folderService({ tree: folderTree }, personal));
/** ListTeamFolders, GetTeamFolderOrder: the membership, then the tree. */
export const teamFolderReader = /* @__PURE__ */ once(() => folderService({ tree: folderTree }, teamAccess()));
/** GetFolder. */
export const folderLookup = /* @__PURE__ */ once(() => folderService({ get: getFolder }, personal));
/** GetTeamFolder. */
export const teamFolderLookup = /* @__PURE__ */ once(() => folderService({ get: getFolder }, teamAccess()));
/** CreateFolder. */
export const folderCreator = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, create: createFolder }, personal),
);
/** CreateTeamFolder. */
export const teamFolderCreator = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, create: createFolder }, teamAccess()),
);
/** UpdateFolder. */
export const folderUpdater = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, update: updateFolder }, personal),
);
/** UpdateTeamFolder. */
export const teamFolderUpdater = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, update: updateFolder }, teamAccess()),
);
/** DeleteFolder. */
export const folderRemover = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, delete: deleteFolder }, personal),
);
/** DeleteTeamFolder. */
export const teamFolderRemover = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, delete: deleteFolder }, teamAccess()),
);
/** UpdateFolderOrder. */
export const folderOrderer = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, putOrder: putFolderOrder }, personal),
);
/** UpdateTeamFolderOrder. */
export const teamFolderOrderer = /* @__PURE__ */ once(() =>
  folderService({ tree: folderTree, putOrder: putFolderOrder }, teamAccess()),
);
/** ListNotes, ListTeamNotes with a folderId: the folder (GetItem), then its notes (Query of GSI3). */
export const folderNotes = /* @__PURE__ */ once(() =>
  folderService({ get: getFolder, notesIn: notesInFolder }, teamAccess()),
);
/** The folderPaths of every note response (read by the handlers, given to lib/notes/notes/http.ts): a team's tree to its members. */
export const folderPaths = /* @__PURE__ */ once(() => folderService({ tree: folderTree }, teamAccess()));
