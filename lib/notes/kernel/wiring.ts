// What several Notes features' wiring shares: no directory for personal operations, no image store
// for operations that never touch images.
import { only } from '../../domain/only.ts';
import type { Directory, ImageStore } from './ports.ts';

/**
 * No directory, for the operations that never ask it: a personal workspace's (it is the caller's
 * own), moving a note to the trash and the purge (the caller already authorized, or no caller). Their
 * functions bundle no team check (GetItem); team operations get teamAccess() (isMember, getTeam).
 */
export const personal = /* @__PURE__ */ only<Directory>('directory', {});

/** No image store: for operations that never touch images. */
export const noImages: ImageStore = {
  put: () => Promise.reject(new Error('this function has no image store')),
  deleteAll: () => Promise.reject(new Error('this function has no image store')),
};
