// Notes as the domain sees them. Field names follow the Notes interface document's NoteType; timestamps are epoch ms.
export const PUBLISH_TYPES = ['edit', 'view', 'slide', 'book'] as const;
export const PERMISSION_ROLES = ['owner', 'signed_in', 'guest'] as const;
export const COMMENT_PERMISSIONS = [
  'disabled',
  'forbidden',
  'owners',
  'signed_in_users',
  'everyone',
] as const;
export const SUGGEST_EDIT_PERMISSIONS = ['disabled', 'forbidden', 'owners', 'signed_in_users'] as const;

export type PublishType = (typeof PUBLISH_TYPES)[number];
export type PermissionRole = (typeof PERMISSION_ROLES)[number];
export type CommentPermission = (typeof COMMENT_PERMISSIONS)[number];
export type SuggestEditPermission = (typeof SUGGEST_EDIT_PERMISSIONS)[number];

/** Largest note content, in bytes of UTF-8. */
export const MAX_CONTENT_BYTES = 300 * 1024;
/** Largest uploaded image, in bytes. */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;
/** GetHistory returns at most this many entries (also the default). */
export const MAX_HISTORY = 1000;
export const UNTITLED = 'Untitled';

/** `id` is 22 URL-safe characters (128 random bits); its first SHORT_ID_LENGTH characters are the shortId. */
export const ID_LENGTH = 22;
export const SHORT_ID_LENGTH = 10;
/** A note id from 16 random bytes (128 bits). */
export const noteIdOf = (random: Buffer): string => random.toString('base64url');
export const shortIdOf = (id: string): string => id.slice(0, SHORT_ID_LENGTH);

export interface SimpleUserProfile {
  name: string;
  userPath: string;
  photo: string;
  biography: string | null;
}

/** The NOTE#META item: everything but the content. */
export interface NoteRecord {
  id: string;
  shortId: string;
  /** Owner of a personal note; null for team notes. */
  ownerId: string | null;
  userPath: string | null;
  teamPath: string | null;
  title: string;
  /** The title set explicitly (create/update); null when the title comes from the content. */
  explicitTitle: string | null;
  tags: string[];
  description: string;
  createdAt: number;
  lastChangedAt: number;
  titleUpdatedAt: number | null;
  tagsUpdatedAt: number | null;
  lastChangeUser: SimpleUserProfile | null;
  publishType: PublishType;
  publishedAt: number | null;
  permalink: string | null;
  readPermission: PermissionRole;
  writePermission: PermissionRole;
  commentPermission: CommentPermission;
  suggestEditPermission: SuggestEditPermission;
  parentFolderId: string | null;
  origin: string | null;
  noteFeatures: Record<string, string> | null;
  /** Bumped by every change; the ETag and the optimistic-concurrency condition. */
  version: number;
  /**
   * Internal, never presented: the `version` at which the content last changed (absent on items
   * written before it was kept). The content lives in its own item, which the event pipeline does
   * not see: comparing this between a META item's old and new image tells a content change apart
   * from a change of the other fields, whoever made it.
   */
  contentVersion?: number;
  /**
   * Internal, never presented: when live editing last wrote the content (epoch ms). A write that
   * changes it is a live write, whose `note.updated` waits for the end of its window
   * (lib/notes/webhooks/events/live-window.ts); other writes carry it across unchanged.
   */
  liveChangedAt?: number;
  /**
   * Internal, never presented: the `version` of the last REST write that changed the content. A
   * live flush whose document does not yet hold that change (its delta, appended after the write)
   * does not write (lib/notes/live/service.ts, flush): it would put older text over it.
   */
  restContentVersion?: number;
  /**
   * Internal, never presented: the note's workspace has a webhook (set when it was written or
   * stamped). The stream's filter passes only changes of marked items to the event router
   * (docs/architecture.md, "Webhook events"); a write carries it across.
   */
  hooked?: true;
  /**
   * Internal, never presented: live editing has (or is about to create) a document of the note
   * (set once, before the document is created). A REST content change hands the change to the
   * document only then, so a note never edited live costs no read of one; a write carries it across.
   */
  live?: true;
}

/** The webhook marker of an item written for `note` (a version, a comment): NoteRecord.hooked. */
export const hookMarkOf = (note: Pick<NoteRecord, 'hooked'>): { hooked?: true } =>
  note.hooked ? { hooked: true } : {};

export interface NoteWithContent {
  note: NoteRecord;
  content: string;
}

/**
 * A created note; `misplaced`: why it is at the top level of its workspace rather than in the
 * parentFolderId asked for (no such folder there): HackMD's 207 {note, error}.
 */
export interface CreatedNote extends NoteWithContent {
  misplaced?: string;
}

/** What the caller may send when creating a note (all optional). */
export interface NoteCreation {
  title?: string;
  tags?: string[];
  description?: string;
  content?: string;
  readPermission?: PermissionRole;
  writePermission?: PermissionRole;
  commentPermission?: CommentPermission;
  suggestEditPermission?: SuggestEditPermission;
  permalink?: string;
  parentFolderId?: string;
  origin?: string;
  noteFeatures?: Record<string, string>;
}

/** What the caller may change (only the fields present change). */
export type NoteChanges = Pick<
  NoteCreation,
  'title' | 'tags' | 'description' | 'content' | 'readPermission' | 'writePermission' | 'permalink'
> & { parentFolderId?: string | null };

/** Fields only the note's owner (team notes: any member) may change. */
export const MANAGER_FIELDS = [
  'readPermission',
  'writePermission',
  'permalink',
  'parentFolderId',
] as const satisfies readonly (keyof NoteChanges)[];

/** The text of the content's first `# ` heading, if any. */
export function headingOf(content: string): string | undefined {
  const match = /^# +(.+?)\s*#*\s*$/m.exec(content);
  return match?.[1].trim() || undefined;
}

/** At most this many tags of at most MAX_TAG_LENGTH characters (the request schema's limits too). */
export const MAX_TAGS = 64;
export const MAX_TAG_LENGTH = 64;

/**
 * HackMD's tags line: the first `###### tags: \`a\` \`b\`` line of the content gives its backtick-quoted
 * tags (trimmed, empty and duplicate ones dropped, cut to the limits); undefined without such a line.
 */
export function tagsOf(content: string): string[] | undefined {
  const line = /^#{6}[ \t]+tags[ \t]*:(.*)$/im.exec(content);
  if (!line) return undefined;
  const tags = [...line[1].matchAll(/`([^`\n]+)`/g)]
    .map((m) => m[1].trim().slice(0, MAX_TAG_LENGTH))
    .filter(Boolean);
  return [...new Set(tags)].slice(0, MAX_TAGS);
}

export const titleFor = (explicitTitle: string | null, content: string): string =>
  explicitTitle ?? headingOf(content) ?? UNTITLED;

const BREADTH: Record<PermissionRole, number> = { owner: 0, signed_in: 1, guest: 2 };
/** writePermission may not be broader than readPermission. */
export const permissionsConsistent = (read: PermissionRole, write: PermissionRole): boolean =>
  BREADTH[write] <= BREADTH[read];
/**
 * The readPermission a create or an update ends with: the one sent; else, when a writePermission
 * broader than the current readPermission is sent alone, that writePermission (read widens to
 * match, as HackMD's editor does; hackmd-cli sends writePermission alone); else the current one.
 */
export const readPermissionAfter = (
  sent: { readPermission?: PermissionRole; writePermission?: PermissionRole },
  current: PermissionRole,
): PermissionRole =>
  sent.readPermission ??
  (sent.writePermission && !permissionsConsistent(current, sent.writePermission)
    ? sent.writePermission
    : current);
/** Any signed-in caller passes a role broader than owner (every API caller is signed in). */
export const opensToSignedIn = (role: PermissionRole): boolean => role !== 'owner';

export const etagOf = (note: Pick<NoteRecord, 'shortId' | 'version'>): string =>
  `"${note.shortId}-${note.version}"`;

/**
 * HackMD's FolderPath: one segment of a note's breadcrumb (absent icon, color, parent are ""), as
 * every note response carries them; the folders feature computes them (folders/folders.ts).
 */
export interface FolderPath {
  id: string;
  name: string;
  icon: string;
  color: string;
  parentId: string;
  clientId: string;
}
