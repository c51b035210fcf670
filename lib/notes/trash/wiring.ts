// The trash feature's wiring: the trash service, wired per operation with only the trash store
// methods that operation calls (every other one rejects); built on first use. Only the purge reaches
// S3, to delete a purged note's images.
import { config } from '../../config.ts';
import { systemClock } from '../../domain/clock.ts';
import { once } from '../../domain/once.ts';
import { only } from '../../domain/only.ts';
import { teamAccess } from '../../identity/wiring.ts';
import { deleteImages } from '../images/adapters/s3-images.ts';
import type { Bin } from '../kernel/ports.ts';
import { personal } from '../kernel/wiring.ts';
import {
  dueForPurge,
  getTrashed,
  listTrash,
  purgeTrashed,
  restoreTrashed,
  trashNote,
} from './adapters/dynamo-trash.ts';
import { type ImageRemover, type TeamDirectory, type TrashStore, TrashService } from './trash.ts';

/** The trash service with only these trash store methods (every other one rejects), and no image store but the purge's. */
const trashService = (store: Partial<TrashStore>, directory: TeamDirectory, images?: ImageRemover) =>
  new TrashService({
    store: only<TrashStore>('trash', store),
    images,
    directory,
    retentionDays: () => config.trashRetentionDays,
    clock: systemClock,
  });

/** ListTrash: one Query of the caller's trash. */
export const trashLister = /* @__PURE__ */ once(() => trashService({ list: listTrash }, personal));
/** ListTeamTrash: the team (GetItem), then its trash (one Query). */
export const teamTrashLister = /* @__PURE__ */ once(() => trashService({ list: listTrash }, teamAccess()));
/**
 * RestoreNote, BatchRestore (personal or team notes): the note's partition (Query), the team
 * checks (GetItem), the restore (TransactWriteItems; history entries past its room, UpdateItem).
 */
export const trashRestorer = /* @__PURE__ */ once(() =>
  trashService({ get: getTrashed, restore: restoreTrashed }, teamAccess()),
);
/** Where DeleteNote, DeleteTeamNote move a note (noteDeleter): TransactWriteItems, UpdateItem. */
const trashBin = /* @__PURE__ */ once(() => trashService({ trash: trashNote }, personal));
/** The notes service's Bin: the trash, built when a note is first moved there. */
export const toTrash: Bin = { moveToTrash: (stored, userId) => trashBin().moveToTrash(stored, userId) };

/** The trash purge (stream function): a purged note's items, then its images (S3 list and delete). */
export const trashPurger = /* @__PURE__ */ once(() =>
  trashService({ purge: purgeTrashed }, personal, { deleteAll: deleteImages }),
);

/** The sweep of every due note (admin CLI's purge-trash, tests): the purge and the due notes' Query. */
export const trashSweeper = /* @__PURE__ */ once(() =>
  trashService({ due: dueForPurge, purge: purgeTrashed }, personal, { deleteAll: deleteImages }),
);

export { expiredNotesOf } from './adapters/dynamo-trash.ts';
