// The event catalogue: which changes of the table's items are events a webhook receives. Each kind
// of item has its own rule (noteEvents, pingEvents, versionEvents, commentEvents); a later kind adds
// its own rule and event types without touching the others. Decisions: docs/webhooks.md.
import type { NoteOwnerKey } from '../../../data/keys.ts';
import type { CommentRecord } from '../../revisions/comments.ts';
import type { NoteRecord } from '../../kernel/model.ts';
import type { VersionRecord } from '../../revisions/versions.ts';
import type { WebhookRecord } from '../webhooks.ts';

export const EVENT_TYPES = [
  'note.created',
  'note.updated',
  'note.deleted',
  'note.restored',
  'version.created',
  'comment.created',
  'comment.resolved',
  'comment.reopened',
  'ping',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A note's META item as the stream shows it: the record, and when it went to the trash (if it is there). */
export interface NoteState {
  note: NoteRecord;
  deletedAt?: number;
  /** When it last came back from the trash (the note.restored event's time). */
  restoredAt?: number;
}

/** One change of the table (a stream record), its images read as the domain's records. */
export type TableChange =
  | {
      kind: 'note';
      id: string;
      before?: NoteState;
      after?: NoteState;
      /** A live window's check (live-window.ts): the window's writes as one change, routed now. */
      closesWindow?: true;
    }
  | { kind: 'webhook'; id: string; before?: WebhookRecord; after?: WebhookRecord }
  | ({ kind: 'version' } & RevisionChange<VersionRecord>)
  | ({ kind: 'comment' } & RevisionChange<CommentRecord>);

/**
 * A change of a note's version or comment item. Those items do not hold the note: the router reads
 * it (`note`, its META as it is when the change is routed; absent when the note is gone).
 */
export interface RevisionChange<T> {
  id: string;
  noteShortId: string;
  before?: T;
  after?: T;
  /** When the stream recorded the change (epoch ms, second precision). */
  at: number;
  note?: NoteState;
}

/** An event of a workspace, before it is matched to webhooks. */
export interface WorkspaceEvent {
  /** Derived from the stream record: the same on every redelivery of that record. */
  id: string;
  type: EventType;
  createdAt: number;
  owner: NoteOwnerKey;
  workspace: { type: 'user' | 'team'; path: string };
  note?: NoteRecord;
  /** note.updated: which of the fields that make an update changed. */
  changes?: string[];
  /** Folders the note was in before and after the change (a folder scope matches either). */
  folderIds: string[];
  version?: VersionRecord;
  comment?: CommentRecord;
  /** A ping goes to this webhook only (whether active or not). */
  onlyHook?: WebhookRecord;
}

/** note.updated is about these fields (and `content`: contentChanged). */
const WATCHED: [string, (n: NoteRecord) => unknown][] = [
  ['title', (n) => n.title],
  ['tags', (n) => JSON.stringify(n.tags)],
  ['readPermission', (n) => n.readPermission],
  ['writePermission', (n) => n.writePermission],
  ['parentFolderId', (n) => n.parentFolderId],
  ['description', (n) => n.description],
  ['permalink', (n) => n.permalink],
];

/**
 * Whether a write changed the note's content. The content is its own item, outside the stream's
 * filter; the META item keeps the version at which it last changed (`contentVersion`), so the old and
 * new images tell it whoever wrote and whatever else the write changed. An item written before
 * `contentVersion` was kept has none: a write that changes the content sets it, one that does not
 * leaves it absent.
 */
export function contentChanged(before: NoteRecord, after: NoteRecord): boolean {
  return after.contentVersion !== before.contentVersion;
}

/** The fields a write of a note changed, as `note.updated` names them (`content` first). */
export function changedFields(before: NoteRecord, after: NoteRecord): string[] {
  const fields = WATCHED.filter(([, f]) => f(before) !== f(after)).map(([name]) => name);
  return contentChanged(before, after) ? ['content', ...fields] : fields;
}

const ownerOf = (n: NoteRecord): NoteOwnerKey =>
  n.teamPath ? { teamPath: n.teamPath } : { userId: n.ownerId! };
const workspaceOf = (n: NoteRecord) =>
  n.teamPath
    ? { type: 'team' as const, path: n.teamPath }
    : { type: 'user' as const, path: n.userPath ?? '' };

/** Whether a write of a note (not a trash or restore) came from live editing (NoteRecord.liveChangedAt). */
export function isLiveWrite(before: NoteState | undefined, after: NoteState | undefined): boolean {
  if (!before || !after || before.deletedAt !== undefined || after.deletedAt !== undefined) return false;
  const at = after.note.liveChangedAt;
  return at !== undefined && at !== before.note.liveChangedAt;
}

function noteEvents(
  id: string,
  before?: NoteState,
  after?: NoteState,
  closesWindow?: true,
): WorkspaceEvent[] {
  if (!after) return []; // purges (TTL) are not events: the note.deleted came 30 days earlier
  // A live write's note.updated is its window's (live-window.ts): routed when the window closes.
  if (!closesWindow && isLiveWrite(before, after)) return [];
  const note = after.note;
  const folderIds = [
    ...new Set([before?.note.parentFolderId, note.parentFolderId].filter((f): f is string => !!f)),
  ];
  const base = { id, owner: ownerOf(note), workspace: workspaceOf(note), note, folderIds };
  if (!before) return after.deletedAt ? [] : [{ ...base, type: 'note.created', createdAt: note.createdAt }];
  const wasTrashed = before.deletedAt !== undefined;
  const isTrashed = after.deletedAt !== undefined;
  if (!wasTrashed && isTrashed) return [{ ...base, type: 'note.deleted', createdAt: after.deletedAt! }];
  if (wasTrashed && !isTrashed)
    return [{ ...base, type: 'note.restored', createdAt: after.restoredAt ?? note.lastChangedAt }];
  if (isTrashed || before.note.version === note.version) return [];
  const changes = changedFields(before.note, note);
  if (changes.length === 0) return [];
  return [{ ...base, type: 'note.updated', createdAt: note.lastChangedAt, changes }];
}

function pingEvents(id: string, before?: WebhookRecord, after?: WebhookRecord): WorkspaceEvent[] {
  if (!after?.pingId || after.pingId === before?.pingId) return [];
  const owner = after.owner;
  return [
    {
      id,
      type: 'ping',
      createdAt: after.lastPingAt ?? after.updatedAt,
      owner,
      workspace:
        'teamPath' in owner ? { type: 'team', path: owner.teamPath } : { type: 'user', path: owner.userId },
      folderIds: [],
      onlyHook: after,
    },
  ];
}

/** The event of a note's version or comment, in the note's workspace and folder; none once the note is trashed or gone. */
function revisionEvent<T>(
  c: RevisionChange<T>,
  type: EventType,
  createdAt: number,
  item: { version: VersionRecord } | { comment: CommentRecord },
): WorkspaceEvent[] {
  if (!c.note || c.note.deletedAt !== undefined) return [];
  const note = c.note.note;
  const folderIds = note.parentFolderId ? [note.parentFolderId] : [];
  return [
    {
      id: c.id,
      type,
      createdAt,
      owner: ownerOf(note),
      workspace: workspaceOf(note),
      note,
      folderIds,
      ...item,
    },
  ];
}

/**
 * version.created: a named version came to be — a new one (INSERT, nameSource user) or a system
 * version named in place (MODIFY, nameSource system → user). System versions (auto-saves, at most
 * one per note per window: note.updated covers their content), their coalescing and renames are not.
 */
function versionEvents(c: RevisionChange<VersionRecord>): WorkspaceEvent[] {
  const v = c.after;
  if (v?.nameSource !== 'user' || c.before?.nameSource === 'user') return [];
  return revisionEvent(c, 'version.created', c.before ? c.at : v.createdAt, { version: v });
}

/**
 * comment.created: a comment was written (INSERT: a thread head or a reply, `isThreadHead` tells).
 * comment.resolved / comment.reopened: a thread head's threadState went open → hidden / hidden → open
 * (however it was resolved: from the head or from a reply). Edits, reply counts and deletions are not events.
 */
function commentEvents(c: RevisionChange<CommentRecord>): WorkspaceEvent[] {
  const after = c.after;
  if (!after) return [];
  if (!c.before) return revisionEvent(c, 'comment.created', after.createdAt, { comment: after });
  const was = c.before.threadState?.status;
  const is = after.threadState?.status;
  if (!after.isThreadHead || !was || !is || was === is) return [];
  const type = is === 'hidden' ? 'comment.resolved' : 'comment.reopened';
  return revisionEvent(c, type, after.threadState?.actedAt ?? after.updatedAt, { comment: after });
}

/** The events of one change of the table (none for most changes). */
export function eventsOf(change: TableChange): WorkspaceEvent[] {
  switch (change.kind) {
    case 'note':
      return noteEvents(change.id, change.before, change.after, change.closesWindow);
    case 'version':
      return versionEvents(change);
    case 'comment':
      return commentEvents(change);
    default:
      return pingEvents(change.id, change.before, change.after);
  }
}
