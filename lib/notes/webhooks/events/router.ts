// The event router: the events of a batch of table changes, matched to the webhooks of their
// workspaces, become delivery jobs on the queue. One Query of a workspace's webhooks per batch
// (and one of its folders when a folder scope or the payload's folderPaths need it), and one
// GetItem of the note per note whose versions or comments changed (their items do not hold it).
// A batch that fails is retried whole by the stream (bisected), and its events keep their ids, so
// a receiver can drop a duplicate by `webhook-id`.
import type { NoteOwnerKey } from '../../../data/keys.ts';
import { presentComment } from '../../revisions/comments.ts';
import { type FolderRecord, folderPathOf } from '../../folders/folders.ts';
import { presentNote } from '../../kernel/present.ts';
import { presentVersion } from '../../revisions/versions.ts';
import type { AttemptKind, WebhookRecord } from '../webhooks.ts';
import { eventsOf, type NoteState, type TableChange, type WorkspaceEvent } from './catalogue.ts';
import { closingChange, handedOn, type LiveWindow, windowOpenedBy } from './live-window.ts';

/** One event for one webhook: what the delivery function sends (the body is signed as it is). */
export interface DeliveryJob {
  hookId: string;
  owner: NoteOwnerKey;
  eventId: string;
  eventType: string;
  attemptKind: AttemptKind;
  /** The JSON body, the same bytes on every attempt. */
  body: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** Not before (epoch ms): a retry waits in the queue until then. */
  dueAt?: number;
  /** The slow lane's queue rather than the delivery queue (lanes.ts): its webhook's receiver hangs. */
  lane?: 'slow';
}

export interface RouterPorts {
  hooksOf(owner: NoteOwnerKey): Promise<WebhookRecord[]>;
  foldersOf(owner: NoteOwnerKey): Promise<FolderRecord[]>;
  userPathOf(userId: string): Promise<string>;
  /** A note's META (one GetItem); undefined when it is gone. */
  noteOf(shortId: string): Promise<NoteState | undefined>;
  enqueue(jobs: DeliveryJob[]): Promise<void>;
  /** Sends each window's check, due at its end (live-window.ts). */
  openWindows(windows: LiveWindow[]): Promise<void>;
}

export interface WindowPorts extends RouterPorts {
  /** A note's META, strongly consistent (every live write of the window is in it); undefined when gone. */
  currentNote(shortId: string): Promise<NoteState | undefined>;
  /** The earliest window of the note whose check handed its event on, if any (strongly consistent). */
  carried(shortId: string): Promise<LiveWindow | undefined>;
  /** Keeps a handed-on window (unless an earlier one is kept). */
  carry(window: LiveWindow): Promise<void>;
  /** The carried window ending at `endsAt` was announced: it goes (not a later one carried since). */
  dropCarried(shortId: string, endsAt: number): Promise<void>;
}

const keyOf = (o: NoteOwnerKey) => ('teamPath' in o ? `team:${o.teamPath}` : `user:${o.userId}`);

/** Whether the folder `folderId` is `scopeId` or one of its sub-folders. */
function within(folderId: string, scopeId: string, byId: Map<string, FolderRecord>): boolean {
  for (let id: string | null = folderId, depth = 0; id && depth <= 64; depth += 1) {
    if (id === scopeId) return true;
    id = byId.get(id)?.parentFolderId ?? null;
  }
  return false;
}

function bodyOf(e: WorkspaceEvent, byId: Map<string, FolderRecord>): string {
  const data: Record<string, unknown> = {};
  if (e.note) data.note = presentNote(e.note, folderPathOf(e.note.parentFolderId, byId));
  if (e.changes) data.changes = e.changes;
  if (e.version) data.version = presentVersion(e.version);
  if (e.comment) {
    // As GET .../comments lists it, without currentAnchor: that is computed on read against the
    // live content, which the event does not read (GET the comment for it).
    const { comment } = e;
    const { currentAnchor: _, ...shown } = presentComment({
      comment,
      thread: comment.threadState!,
      currentAnchor: null,
    });
    data.comment = shown;
  }
  return JSON.stringify({ id: e.id, type: e.type, createdAt: e.createdAt, workspace: e.workspace, data });
}

/**
 * Closes live windows whose checks are due: one note.updated each, counted from the note before the
 * earliest window handed on to it, unless a later window has it (then it is handed on: carried).
 */
export async function closeWindows(windows: LiveWindow[], ports: WindowPorts): Promise<number> {
  const closing = await Promise.all(
    windows.map(async (w) => {
      const [now, carried] = await Promise.all([ports.currentNote(w.shortId), ports.carried(w.shortId)]);
      const earlier = carried && carried.endsAt < w.endsAt ? carried : undefined;
      if (handedOn(w, now)) {
        if (!earlier) await ports.carry(w);
        return undefined;
      }
      const change = closingChange(earlier ? { ...w, before: earlier.before } : w, now);
      return change && { change, earlier };
    }),
  );
  const routed = closing.filter((c) => c !== undefined);
  const jobs = routed.length
    ? await routeChanges(
        routed.map((c) => c.change),
        ports,
      )
    : 0;
  for (const { earlier } of routed) if (earlier) await ports.dropCarried(earlier.shortId, earlier.endsAt);
  return jobs;
}

/** The jobs of the changes; enqueues them, and the checks of the live windows they open. Returns how many jobs. */
export async function routeChanges(changes: TableChange[], ports: RouterPorts): Promise<number> {
  const windows = changes.map(windowOpenedBy).filter((w): w is LiveWindow => w !== undefined);
  if (windows.length) await ports.openWindows(windows);
  const notes = new Map<string, Promise<NoteState | undefined>>();
  for (const c of changes)
    if (c.kind === 'version' || c.kind === 'comment') {
      if (!notes.has(c.noteShortId)) notes.set(c.noteShortId, ports.noteOf(c.noteShortId));
      c.note = await notes.get(c.noteShortId);
    }
  const events = changes.flatMap(eventsOf);
  const hooks = new Map<string, Promise<WebhookRecord[]>>();
  const folders = new Map<string, Promise<Map<string, FolderRecord>>>();
  const hooksOf = (o: NoteOwnerKey) => {
    if (!hooks.has(keyOf(o))) hooks.set(keyOf(o), ports.hooksOf(o));
    return hooks.get(keyOf(o))!;
  };
  const foldersOf = (o: NoteOwnerKey) => {
    if (!folders.has(keyOf(o)))
      folders.set(
        keyOf(o),
        ports.foldersOf(o).then((all) => new Map(all.map((f) => [f.id, f]))),
      );
    return folders.get(keyOf(o))!;
  };
  const jobs: DeliveryJob[] = [];
  for (const e of events) {
    if (e.onlyHook) {
      if ('userId' in e.owner) e.workspace = { type: 'user', path: await ports.userPathOf(e.owner.userId) };
      jobs.push(job(e, e.onlyHook, bodyOf(e, new Map()), 'ping'));
      continue;
    }
    // Inactive webhooks get their jobs too: the delivery logs them as skipped and sends nothing.
    const all = await hooksOf(e.owner);
    if (all.length === 0) continue;
    const needsTree = e.folderIds.length > 0;
    const byId = needsTree ? await foldersOf(e.owner) : new Map<string, FolderRecord>();
    const matching = all.filter(
      (h) =>
        h.scope.type === 'workspace' ||
        e.folderIds.some((f) => within(f, (h.scope as { folderId: string }).folderId, byId)),
    );
    if (matching.length === 0) continue;
    const body = bodyOf(e, byId);
    for (const h of matching) jobs.push(job(e, h, body, 'event'));
  }
  if (jobs.length) await ports.enqueue(jobs);
  return jobs.length;
}

const job = (e: WorkspaceEvent, h: WebhookRecord, body: string, attemptKind: AttemptKind): DeliveryJob => ({
  hookId: h.id,
  owner: h.owner,
  eventId: e.id,
  eventType: e.type,
  attemptKind,
  body,
  attempt: 1,
  ...(h.slowSince === undefined ? {} : { lane: 'slow' as const }),
});
