// The trash (HackMD API v1 Trash): DeleteNote moves a note here; it stays restorable, with its
// content, images and history, for the retention period (NOTES_TRASH_RETENTION_DAYS, 30 by
// default), then it is purged for good, images included. Rules (docs/notes.md):
// - a trashed note is 404 on every note route; it is listed in its workspace's trash;
// - personal trash: the owner lists and restores; team trash: the team's owner (the team admin)
//   lists; the team's owner or the member who deleted the note restores;
// - restoring puts the note back where it was (its folder, or the top level if the folder is gone).
import type { Clock } from '../../domain/clock.ts';
import { only } from '../../domain/only.ts';
import { Conflict, Forbidden, NotFound } from '../../domain/errors.ts';
import { AGAIN, type RetryPolicy, retryOnConflict } from '../../domain/retry.ts';
import type { NoteOwnerKey } from '../../data/keys.ts';
import type { Team } from '../../identity/model.ts';
import type { NoteRecord } from '../kernel/model.ts';
import type { StoredNote } from '../kernel/ports.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** BatchRestore takes at most this many note ids. */
export const MAX_BATCH_RESTORE = 100;
const WRITE_ATTEMPTS = 3;
/** A restore: written conditionally on the trashed note read, again on a fresh read. */
const RESTORE_RETRY: RetryPolicy = {
  attempts: WRITE_ATTEMPTS,
  exhausted: () => new Conflict('The note is being changed concurrently; retry the request'),
};

/** A note in the trash: its record and when (and by whom) it was deleted, and when it is purged. */
export interface TrashedNote {
  note: NoteRecord;
  deletedAt: number;
  deletedBy: string;
  purgeAt: number;
}

export interface TrashStore {
  /** Moves the note (read with its visitors) to the trash; false when it changed since read. */
  trash(stored: StoredNote, entry: Omit<TrashedNote, 'note'>): Promise<boolean>;
  /** A workspace's trashed notes not yet due, most recently deleted first (one Query). */
  list(owner: NoteOwnerKey, now: number): Promise<TrashedNote[]>;
  /** The trashed note with this shortId, if it is in the trash and not yet due. */
  get(shortId: string, now: number): Promise<TrashedNote | undefined>;
  /**
   * Restores it (with its history entries) into `parentFolderId`; 'changed' when it changed since
   * read, 'folder-gone' when that folder no longer exists.
   */
  restore(
    t: TrashedNote,
    parentFolderId: string | null,
    now: number,
  ): Promise<'restored' | 'changed' | 'folder-gone'>;
  /** Trashed notes due at `until` (oldest first, at most `limit`). */
  due(until: number, limit: number): Promise<NoteRecord[]>;
  /** Deletes every item left of the note (its META only if due at `now`); false if it was not due. */
  purge(note: NoteRecord, now: number): Promise<boolean>;
}

export interface ImageRemover {
  deleteAll(noteId: string): Promise<void>;
}
/** What the trash service is built from; only the purge wires the image store (unwired: lib/domain/only.ts). */
export interface TrashDependencies {
  store: TrashStore;
  images?: ImageRemover;
  directory: TeamDirectory;
  retentionDays: () => number;
  clock: Clock;
}
export interface TeamDirectory {
  getTeam(teamPath: string): Promise<Team | undefined>;
  isMember(teamPath: string, userId: string): Promise<boolean>;
}

export type RestoreOutcome =
  | { status: 'success' }
  | { status: 'failure'; reason: 'NOT_FOUND' | 'PERMISSION_DENIED' | 'INTERNAL_ERROR' };

export class TrashService {
  private readonly store: TrashStore;
  private readonly images: ImageRemover;
  private readonly directory: TeamDirectory;
  private readonly retentionDays: () => number;
  private readonly clock: Clock;

  constructor(deps: TrashDependencies) {
    ({
      store: this.store,
      directory: this.directory,
      retentionDays: this.retentionDays,
      clock: this.clock,
    } = deps);
    this.images = deps.images ?? only<ImageRemover>('images', {});
  }

  /** DeleteNote: the note (already located and authorized by the caller) goes to the trash. */
  moveToTrash(stored: StoredNote, userId: string): Promise<boolean> {
    const deletedAt = this.clock.now();
    return this.store.trash(stored, {
      deletedAt,
      deletedBy: userId,
      purgeAt: deletedAt + this.retentionDays() * DAY_MS,
    });
  }

  listPersonal(userId: string): Promise<TrashedNote[]> {
    return this.store.list({ userId }, this.clock.now());
  }

  /** A team's trash: the team's owner (its admin) only; other members 403, unknown team 404. */
  async listTeam(userId: string, teamPath: string): Promise<{ team: Team; trashed: TrashedNote[] }> {
    const team = await this.directory.getTeam(teamPath);
    if (!team) throw new NotFound(`Team "${teamPath}" does not exist`);
    if (team.ownerId !== userId) throw new Forbidden("Only the team's admin may see its trash");
    return { team, trashed: await this.store.list({ teamPath }, this.clock.now()) };
  }

  async restore(userId: string, ref: string): Promise<void> {
    const outcome = await this.restoreOne(userId, ref);
    if (outcome.status === 'success') return;
    if (outcome.reason === 'PERMISSION_DENIED') throw new Forbidden('You may not restore this note');
    throw new NotFound('No such note in the trash');
  }

  /** Restores each note; one outcome per id. 404 when none of them is in the caller's view of the trash. */
  async batchRestore(userId: string, refs: string[]): Promise<Record<string, RestoreOutcome>> {
    const outcomes: Record<string, RestoreOutcome> = {};
    for (const ref of new Set(refs)) {
      outcomes[ref] = await this.restoreOne(userId, ref).catch(
        () => ({ status: 'failure', reason: 'INTERNAL_ERROR' }) as const,
      );
    }
    if (Object.values(outcomes).every((o) => o.status === 'failure' && o.reason === 'NOT_FOUND')) {
      throw new NotFound('None of the notes is in the trash');
    }
    return outcomes;
  }

  /** What the TTL stream (deployed) and the sweep (locally) run for a note whose time is up. */
  async purge(note: NoteRecord, now = this.clock.now()): Promise<boolean> {
    if (!(await this.store.purge(note, now))) return false;
    await this.images.deleteAll(note.id);
    return true;
  }

  /** Purges every trashed note due at `until`; returns how many. */
  async purgeDue(until = this.clock.now()): Promise<number> {
    let purged = 0;
    for (
      let batch = await this.store.due(until, 100);
      batch.length;
      batch = await this.store.due(until, 100)
    ) {
      for (const note of batch) if (await this.purge(note, until)) purged += 1;
      if (batch.length < 100) break;
    }
    return purged;
  }

  private async restoreOne(userId: string, ref: string): Promise<RestoreOutcome> {
    const shortId = ref.slice(0, 10);
    return retryOnConflict(RESTORE_RETRY, async (): Promise<RestoreOutcome | typeof AGAIN> => {
      const now = this.clock.now();
      const t = await this.store.get(shortId, now);
      if (!t || (ref.length !== 10 && t.note.id !== ref)) return { status: 'failure', reason: 'NOT_FOUND' };
      const visible = await this.canSee(userId, t);
      if (!visible) return { status: 'failure', reason: 'NOT_FOUND' };
      if (!(await this.canRestore(userId, t))) return { status: 'failure', reason: 'PERMISSION_DENIED' };
      let outcome = await this.store.restore(t, t.note.parentFolderId, now);
      if (outcome === 'folder-gone') outcome = await this.store.restore(t, null, now);
      return outcome === 'restored' ? { status: 'success' } : AGAIN;
    });
  }

  /** Who learns that a trashed note exists: its owner; for team notes, the team's members. */
  private async canSee(userId: string, t: TrashedNote): Promise<boolean> {
    return t.note.teamPath ? this.directory.isMember(t.note.teamPath, userId) : t.note.ownerId === userId;
  }

  private async canRestore(userId: string, t: TrashedNote): Promise<boolean> {
    if (!t.note.teamPath) return t.note.ownerId === userId;
    if (t.deletedBy === userId) return true;
    return (await this.directory.getTeam(t.note.teamPath))?.ownerId === userId;
  }
}

/** HackMD's ApiTrashNote; `ownerId` of a team note is the team's owner. */
export const presentTrashNote = (t: TrashedNote, team?: Team) => ({
  id: t.note.id,
  title: t.note.title,
  tags: t.note.tags,
  deletedAt: t.deletedAt,
  ownerId: team ? team.ownerId : t.note.ownerId!,
  teamId: team ? team.id : null,
  shortId: t.note.shortId,
  publishType: t.note.publishType,
  permanentDeletedAt: t.purgeAt,
});

/** BatchRestore answers 200 when every note was restored, 207 (per-note outcomes) otherwise. */
export const allRestored = (outcomes: Record<string, RestoreOutcome>): boolean =>
  Object.values(outcomes).every((o) => o.status === 'success');
