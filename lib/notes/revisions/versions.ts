// Note versions (HackMD API v1 Versions). Rules (docs/notes.md, Versions):
// - every committed content change is recorded as a *system* version, coalesced: while the newest
//   version is a system version younger than VERSION_WINDOW_MS, a change updates it in place (its
//   content becomes the new content, the editor joins its `authorship`); otherwise a new system
//   version starts. So a note has at most one system version per window.
// - the newest system version *shares* the live content (`shared`): it stores no copy of its own, so
//   a coalescing change writes only its metadata. Its content is kept for good (a body item of its
//   own) before the live content moves on without it: before the save of a change that starts a
//   new version, and when it is named; both conditional on the note's version as read, so the
//   content kept is the one it held.
// - system versions expire SYSTEM_VERSION_RETENTION_DAYS after they start (DynamoDB TTL; treated as
//   gone from then on); named versions are kept until the note is purged.
// - createVersion names the live content: the newest version in place when it holds that content
//   (system: 201, already named: 409 no_content_change), else a new named version; or names
//   `version:{id}` (409 version_already_named when it has a name). updateVersion renames a named one.
// - reading needs read access to the note; naming and renaming need write access.
import { createHash } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import { BadInput, Conflict, Forbidden, Invalid, isConflict, NotFound } from '../../domain/errors.ts';
import { AGAIN, type RetryPolicy, retryOnConflict } from '../../domain/retry.ts';
import type { User } from '../../identity/model.ts';
import { hookMarkOf, type NoteRecord } from '../kernel/model.ts';
import type { ContentHistory, StoredNote } from '../kernel/ports.ts';
import type { Located } from '../notes/service.ts';

export const VERSION_WINDOW_MS = 10 * 60 * 1000;
export const SYSTEM_VERSION_RETENTION_DAYS = 30;
export const MAX_VERSION_NAME = 80;
export const MAX_VERSION_DESCRIPTION = 500;
export const DEFAULT_VERSION_LIMIT = 50;
/**
 * Named versions per note (kept until the note is purged, up to 300 KiB each): naming past it is 409
 * version_limit_reached. Counted in the naming's own transaction, so racing namings cannot pass it.
 */
export const MAX_NAMED_VERSIONS = 50;
export const MAX_VERSION_LIMIT = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
const ATTEMPTS = 3;
/** Rounds a content change may take to reach its system version (see record()). */
const RECORD_ATTEMPTS = 25;
/** A naming: written conditionally on the versions read, again on a fresh read. */
const NAMING_RETRY: RetryPolicy = {
  attempts: ATTEMPTS,
  conflict: (err) => isConflict(err, 'version'),
  exhausted: () => new Conflict('The note is being changed concurrently; retry the request'),
};
/** A content change's system version: each lost round is another change's won one. */
const RECORD_RETRY: RetryPolicy = {
  attempts: RECORD_ATTEMPTS,
  conflict: (err) => isConflict(err, 'version'),
  exhausted: () => new Conflict('The versions of the note are being changed concurrently'),
};

/** HackMD's NoteVersionUser. */
export interface VersionUser {
  user_id: string;
  display_name: string;
  photo: string;
}
export type NameSource = 'system' | 'user';

export interface VersionRecord {
  id: string;
  name: string | null;
  nameSource: NameSource;
  description: string | null;
  createdAt: number;
  /** Last time the content of a system version was replaced (coalescing); the optimistic lock. */
  updatedAt: number;
  /** Who named it (named versions); null for system versions. */
  createdBy: VersionUser | null;
  /** Who changed the content since the previous version. */
  authorship: VersionUser[];
  contentHash: string;
  bytes: number;
  /** When a system version expires (epoch ms); null for named versions. */
  expiresAt: number | null;
  /** Internal, never presented: named in a workspace with a webhook (NoteRecord.hooked). */
  hooked?: true;
  /**
   * Internal, never presented: the note's version whose content a system version holds. Content
   * changes commit in the note's version order but may reach their versions in any order; a
   * system version never takes content older than it holds.
   */
  noteVersion?: number;
  /**
   * Internal, never presented: the newest system version, whose content is the note's live content
   * (no body of its own; see the rules above).
   */
  shared?: true;
}

/** The note's content as read, at the note's version then: what a shared version holds. */
export interface LiveContent {
  content: string;
  noteVersion: number;
}

export interface VersionStore {
  /** The newest unexpired version, strongly consistent. */
  latest(shortId: string, now: number): Promise<VersionRecord | undefined>;
  /** Every unexpired version, newest first (metadata only). */
  list(shortId: string, now: number): Promise<VersionRecord[]>;
  get(shortId: string, versionId: string, now: number): Promise<VersionRecord | undefined>;
  /** The content of a version that is not shared; undefined when it is no longer available. */
  content(shortId: string, versionId: string): Promise<string | undefined>;
  /**
   * A new version: a shared one without content, any other with it; Conflict('version') if the id
   * exists; a named one also counts into the note's named versions: Conflict('named_versions') at
   * MAX_NAMED_VERSIONS.
   */
  create(shortId: string, v: VersionRecord, content?: string): Promise<void>;
  /**
   * Coalesces a change into a system version: `next` (shared) replaces its metadata; false when it
   * changed, was named or holds a newer change since read.
   */
  coalesce(shortId: string, previous: VersionRecord, next: VersionRecord): Promise<boolean>;
  /**
   * Keeps a shared version's content for good: `live` becomes its own, and it is shared no more;
   * false when it changed since read or the note is no longer at `live.noteVersion`.
   */
  materialize(shortId: string, v: VersionRecord, live: LiveContent): Promise<boolean>;
  /**
   * Names a system version in place (keeps it for good; a shared one keeps `live` as its content,
   * on the same condition as materialize); false when it was named or changed meanwhile;
   * Conflict('named_versions') at MAX_NAMED_VERSIONS.
   */
  name(shortId: string, v: VersionRecord, live?: LiveContent): Promise<boolean>;
  /** Changes a named version's name and description. */
  rename(shortId: string, v: VersionRecord): Promise<void>;
}

export type NoteOpener = (userId: string, ref: string) => Promise<Located>;
/** The calling user's profile (Unauthenticated when the user no longer exists). */
export type UserLookup = (userId: string) => Promise<User>;

export interface VersionQuery {
  named_only?: boolean;
  q?: string;
  created_by?: string;
  created_after?: string;
  created_before?: string;
  page?: number;
  limit?: number;
}
export interface VersionCreation {
  name: string;
  description?: string;
  base?: string;
}
export interface VersionChanges {
  base: string;
  name?: string;
  description?: string;
}

export const contentHash = (content: string): string =>
  createHash('sha256').update(content, 'utf8').digest('base64url');

/** A UUIDv7 (RFC 9562): 48 bits of epoch ms, then random bits; ids sort by creation time. */
export function timeOrderedId(now: number, random: Buffer): string {
  const b = Buffer.alloc(16);
  b.writeUIntBE(Math.trunc(now), 0, 6);
  random.copy(b, 6, 0, 10);
  b[6] = 0x70 | (b[6] & 0x0f);
  b[8] = 0x80 | (b[8] & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const versionUser = (u: Pick<User, 'id' | 'name' | 'photo'>): VersionUser => ({
  user_id: u.id,
  display_name: u.name,
  photo: u.photo,
});

/** `note_content` or `version:{id}`; anything else is undefined. */
export function parseRef(ref: string): { kind: 'note' } | { kind: 'version'; id: string } | undefined {
  if (ref === 'note_content') return { kind: 'note' };
  const m = /^version:([0-9a-f-]{36})$/.exec(ref);
  return m ? { kind: 'version', id: m[1] } : undefined;
}

const notNamed = (v: VersionRecord) =>
  new Invalid('The version is a system version: name it with POST first', {
    details: { error_code: 'version_not_named', version_id: v.id },
  });
const noVersion = () => new NotFound('The note has no such version');

export class VersionService implements ContentHistory {
  constructor(
    private readonly store: VersionStore,
    private readonly open: NoteOpener,
    private readonly users: UserLookup,
    private readonly clock: Clock,
  ) {}

  /**
   * Sees a content change through (called by NotesService.updateNote): when the change starts a new
   * version, the shared one keeps the content it holds first; then `save`, then the change recorded.
   */
  async changeContent(
    previous: StoredNote,
    note: NoteRecord,
    content: string,
    editor: User,
    save: () => Promise<void>,
  ): Promise<void> {
    const now = this.clock.now();
    let latest = await this.store.latest(note.shortId, now);
    if (latest?.shared && latest.nameSource === 'system' && now - latest.createdAt >= VERSION_WINDOW_MS) {
      const live = { content: previous.content, noteVersion: previous.note.version };
      if (!(await this.store.materialize(note.shortId, latest, live)))
        throw new Conflict('The note changed meanwhile', { reason: 'version' });
      latest = { ...kept(latest, previous.content), noteVersion: live.noteVersion };
    }
    await save();
    try {
      await this.record(note.shortId, content, versionUser(editor), note.version, latest);
    } catch (err) {
      // The note's own write has committed: a lost race here must not make it retry.
      if (isConflict(err)) throw new Conflict('The note is being changed concurrently; retry the request');
      throw err;
    }
  }

  async list(userId: string, ref: string, query: VersionQuery) {
    const { stored } = await this.open(userId, ref);
    const after = query.created_after ? Date.parse(query.created_after) : -Infinity;
    const before = query.created_before ? Date.parse(query.created_before) : Infinity;
    const q = query.q?.toLowerCase();
    const all = (await this.store.list(stored.note.shortId, this.clock.now())).filter(
      (v) =>
        (!query.named_only || v.nameSource === 'user') &&
        (!query.created_by || v.createdBy?.user_id === query.created_by) &&
        v.createdAt >= after &&
        v.createdAt <= before &&
        (!q || `${v.name ?? ''}\n${v.description ?? ''}`.toLowerCase().includes(q)),
    );
    const page = query.page ?? 1;
    const limit = query.limit ?? DEFAULT_VERSION_LIMIT;
    return {
      versions: all.slice((page - 1) * limit, page * limit),
      total: all.length,
      page,
      limit,
      totalPages: Math.ceil(all.length / limit),
    };
  }

  async get(userId: string, ref: string, versionId: string) {
    const { stored } = await this.open(userId, ref);
    const v = await this.store.get(stored.note.shortId, versionId, this.clock.now());
    if (!v) throw noVersion();
    return { version: v, content: await this.contentOf(stored, v) };
  }

  /** POST: names the live content (or `version:{id}`); the named version. */
  async create(userId: string, ref: string, input: VersionCreation): Promise<VersionRecord> {
    try {
      return await this.name(userId, ref, input);
    } catch (err) {
      if (!isConflict(err, 'named_versions')) throw err;
      throw new Conflict(`The note has ${MAX_NAMED_VERSIONS} named versions, the most it keeps`, {
        details: { error_code: 'version_limit_reached', max_named_versions: MAX_NAMED_VERSIONS },
      });
    }
  }

  private async name(userId: string, ref: string, input: VersionCreation): Promise<VersionRecord> {
    const { stored, access } = await this.open(userId, ref);
    if (!access.write) throw new Forbidden('You may read this note but not change it');
    const caller = await this.users(userId);
    const shortId = stored.note.shortId;
    const base = parseRef(input.base ?? 'note_content');
    if (!base) throw badBase('base');
    const naming = {
      name: input.name,
      description: input.description ?? null,
      createdBy: versionUser(caller),
      ...hookMarkOf(stored.note),
    };
    const live = { content: stored.content, noteVersion: stored.note.version };
    // A shared version keeps the live content as its own as it is named (if the note is unchanged).
    const inPlace = async (v: VersionRecord): Promise<VersionRecord | undefined> => {
      const named = {
        ...(v.shared ? kept(v, stored.content) : v),
        ...naming,
        nameSource: 'user' as const,
        expiresAt: null,
      };
      return (await this.store.name(shortId, named, v.shared ? live : undefined)) ? named : undefined;
    };
    return retryOnConflict(NAMING_RETRY, async () => {
      const now = this.clock.now();
      if (base.kind === 'version') {
        const v = await this.store.get(shortId, base.id, now);
        if (!v) throw noVersion();
        if (v.nameSource === 'user')
          throw new Conflict('The version already has a name: rename it with PATCH', {
            details: { error_code: 'version_already_named', version_id: v.id, name: v.name },
          });
        return (await inPlace(v)) ?? AGAIN;
      }
      const hash = contentHash(stored.content);
      const latest = await this.store.latest(shortId, now);
      // A shared version holds the live content whatever its recorded hash says (it may lag).
      if (latest?.contentHash === hash || latest?.shared) {
        if (latest.nameSource === 'user')
          throw new Conflict('The content has not changed since the latest named version', {
            details: {
              error_code: 'no_content_change',
              latest_version_id: latest.id,
              latest_name_source: latest.nameSource,
            },
          });
        return (await inPlace(latest)) ?? AGAIN;
      }
      const v: VersionRecord = {
        // The id a content change recorded now would give its new version: a shared version created
        // meanwhile (a change whose recording was under way) takes it first, and this naming then
        // names that one in place, so a shared version is never left behind a newer one.
        id: nextVersionId(shortId, now, latest),
        ...naming,
        nameSource: 'user',
        createdAt: now,
        updatedAt: now,
        // Content that no change recorded (the note's first content) has no known authors.
        authorship: [],
        contentHash: hash,
        bytes: Buffer.byteLength(stored.content, 'utf8'),
        expiresAt: null,
      };
      await this.store.create(shortId, v, stored.content);
      return v;
    });
  }

  /** PATCH: renames a named version; 422 version_not_named for a system one. */
  async update(userId: string, ref: string, changes: VersionChanges): Promise<VersionRecord> {
    const { stored, access } = await this.open(userId, ref);
    if (!access.write) throw new Forbidden('You may read this note but not change it');
    const base = parseRef(changes.base);
    if (base?.kind !== 'version') throw badBase('base', 'must be version:{id}');
    const v = await this.store.get(stored.note.shortId, base.id, this.clock.now());
    if (!v) throw noVersion();
    if (v.nameSource !== 'user') throw notNamed(v);
    const next = {
      ...v,
      name: changes.name ?? v.name,
      description: changes.description ?? v.description,
    };
    await this.store.rename(stored.note.shortId, next);
    return next;
  }

  /**
   * The two contents a compare diffs (compare.ts): `base` and `target`, each note_content or
   * version:{id} of the note the user may read.
   */
  async contentsToCompare(
    userId: string,
    ref: string,
    base: string,
    target: string,
  ): Promise<[string, string]> {
    const { stored } = await this.open(userId, ref);
    const side = async (r: string, field: string): Promise<string> => {
      const parsed = parseRef(r);
      if (!parsed)
        throw new BadInput(`${field} must be note_content or version:{id}`, {
          fields: [{ field, message: 'must be note_content or version:{id}' }],
        });
      if (parsed.kind === 'note') return stored.content;
      const v = await this.store.get(stored.note.shortId, parsed.id, this.clock.now());
      if (!v) throw noVersion();
      const content = await this.contentOf(stored, v);
      if (content === undefined)
        throw new Invalid('The version has no content available', {
          details: { error_code: 'version_content_unavailable', unavailable_ref: r },
        });
      return content;
    };
    return [await side(base, 'base'), await side(target, 'target')];
  }

  /** The content of a version: the note's, read with it, while the version shares it. */
  private async contentOf(stored: StoredNote, v: VersionRecord): Promise<string | undefined> {
    return v.shared ? stored.content : this.store.content(stored.note.shortId, v.id);
  }

  /** `read`: the newest version as read before the save (the first attempt's, saving a Query). */
  private async record(
    shortId: string,
    content: string,
    editor: VersionUser,
    noteVersion: number,
    read: VersionRecord | undefined,
  ): Promise<void> {
    const hash = contentHash(content);
    const bytes = Buffer.byteLength(content, 'utf8');
    // Each lost attempt is another change's won one, and a change older than the version's stops:
    // the newest change keeps trying while concurrent changes settle (at most one round each).
    await retryOnConflict(RECORD_RETRY, async (attempt) => {
      const now = this.clock.now();
      const latest = attempt === 1 ? read : await this.store.latest(shortId, now);
      if (latest?.contentHash === hash) return; // already recorded (a retried request)
      // A later change of the note got there first: its content is the newer.
      if (latest?.noteVersion !== undefined && latest.noteVersion > noteVersion) return;
      // A shared version holds the live content already, whatever the time: it takes the change
      // (its content was kept before the save if the window had passed then).
      if (latest?.nameSource === 'system' && (latest.shared || now - latest.createdAt < VERSION_WINDOW_MS)) {
        const authorship = latest.authorship.some((a) => a.user_id === editor.user_id)
          ? latest.authorship
          : [...latest.authorship, editor];
        const next: VersionRecord = {
          ...latest,
          authorship,
          contentHash: hash,
          bytes,
          updatedAt: now,
          noteVersion,
          shared: true,
        };
        return (await this.store.coalesce(shortId, latest, next)) ? undefined : AGAIN;
      }
      const v: VersionRecord = {
        id: nextVersionId(shortId, now, latest),
        name: null,
        nameSource: 'system',
        description: null,
        createdAt: now,
        updatedAt: now,
        createdBy: null,
        authorship: [editor],
        contentHash: hash,
        bytes,
        expiresAt: now + SYSTEM_VERSION_RETENTION_DAYS * DAY_MS,
        noteVersion,
        shared: true,
      };
      await this.store.create(shortId, v);
    });
  }
}

/**
 * The id of a new system version: the same for every change that starts one from the same newest
 * version in the same window, so concurrent changes meet on one id (the losers coalesce into it, or
 * stop when it holds a newer change) instead of leaving the newest id to whichever wrote last.
 * Time-ordered after the newest version (the list's order), random-looking but derived.
 */
function nextVersionId(shortId: string, now: number, latest: VersionRecord | undefined): string {
  const after = latest ? Number.parseInt(latest.id.replaceAll('-', '').slice(0, 12), 16) + 1 : 0;
  const at = Math.max(Math.floor(now / VERSION_WINDOW_MS) * VERSION_WINDOW_MS, after);
  return timeOrderedId(at, createHash('sha256').update(`${shortId}:${at}`).digest().subarray(0, 10));
}

/** A shared version as it is once it keeps `content` as its own. */
export function kept(v: VersionRecord, content: string): VersionRecord {
  const { shared: _, ...own } = v;
  return { ...own, contentHash: contentHash(content), bytes: Buffer.byteLength(content, 'utf8') };
}

const badBase = (field: string, message = 'must be note_content or version:{id}') =>
  new Invalid(`${field} ${message}`, { fields: [{ field, message }] });

/** HackMD's NoteVersionMetadata (and NoteVersion with its content). */
export const presentVersion = (v: VersionRecord, content?: string | null) => ({
  id: v.id,
  name: v.name ?? `Auto-saved ${new Date(v.createdAt).toISOString()}`,
  name_source: v.nameSource,
  description: v.description,
  created_at: new Date(v.createdAt).toISOString(),
  created_by: v.createdBy,
  authorship: v.authorship,
  content_available: content !== null,
  ...(typeof content === 'string' ? { content } : {}),
});
