// What several Notes features' wiring shares: no directory for personal operations.
import { only } from '../../domain/only.ts';
import type { Directory } from './ports.ts';

/**
 * No directory, for the operations that never ask it: a personal workspace's (it is the caller's
 * own), moving a note to the trash and the purge (the caller already authorized, or no caller). Their
 * functions bundle no team check (GetItem); team operations get teamAccess() (isMember, getTeam).
 */
export const personal = /* @__PURE__ */ only<Directory>('directory', {});
