// Notes use cases. Plain values in, records out; failures are domain errors (lib/domain/errors.ts).
// Permissions (docs/notes.md, "Decisions", Who):
// read = owner, a member of the note's team, or anyone signed in when readPermission is broader than
// owner; write likewise with writePermission; manage (permissions, permalink, folder, delete) = owner,
// or any member for team notes. A note the caller may not read is 404.
import type { Completion } from '../../domain/idempotency.ts';
import { isPolyglot } from '../images/polyglot.ts';
import type { Clock } from '../../domain/clock.ts';
import { only } from '../../domain/only.ts';
import { AGAIN, type RetryPolicy, retryOnConflict } from '../../domain/retry.ts';
import {
  Conflict,
  Forbidden,
  Invalid,
  isConflict,
  NotFound,
  PreconditionFailed,
  TooLarge,
  Unauthenticated,
  Unsupported,
} from '../../domain/errors.ts';
import type { Ids } from '../../domain/ids.ts';
import { simpleProfile, type User } from '../../identity/model.ts';
import {
  ID_LENGTH,
  MANAGER_FIELDS,
  MAX_CONTENT_BYTES,
  MAX_IMAGE_BYTES,
  noteIdOf,
  opensToSignedIn,
  permissionsConsistent,
  readPermissionAfter,
  SHORT_ID_LENGTH,
  shortIdOf,
  tagsOf,
  titleFor,
  type NoteChanges,
  type NoteCreation,
  type NoteRecord,
  type CreatedNote,
  type NoteWithContent,
} from '../kernel/model.ts';
import { unknownFolder } from '../folders/folders.ts';
import type {
  Bin,
  ContentHistory,
  ContentListener,
  Directory,
  ImageStore,
  ImageTypes,
  NotesStore,
  StoredNote,
} from '../kernel/ports.ts';

/** The image types an upload may be (detected from the bytes, lib/notes/kernel/ports.ts ImageTypes). */
export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Attempts of a read-modify-write before giving up under contention. */
const WRITE_ATTEMPTS = 3;

/** The calling user; team memberships are looked up once each, or known from the user's team list. */
class Caller {
  private readonly memberships: Map<string, boolean>;
  private readonly allTeamsKnown: boolean;
  constructor(
    readonly userId: string,
    private readonly directory: Directory,
    readonly user?: User,
    teams?: string[],
    private readonly hookedWorkspaces: string[] = [],
  ) {
    this.memberships = new Map((teams ?? []).map((t) => [t, true]));
    this.allTeamsKnown = teams !== undefined;
  }

  /** Whether a note written now in the workspace carries the webhook marker (NoteRecord.hooked). */
  hookMark(teamPath?: string): { hooked?: true } {
    return this.hookedWorkspaces.includes(teamPath ? `team:${teamPath}` : 'user') ? { hooked: true } : {};
  }

  async isMember(teamPath: string): Promise<boolean> {
    const known = this.memberships.get(teamPath) ?? (this.allTeamsKnown ? false : undefined);
    if (known !== undefined) return known;
    const member = await this.directory.isMember(teamPath, this.userId);
    this.memberships.set(teamPath, member);
    return member;
  }
}

export interface Access {
  read: boolean;
  write: boolean;
  manage: boolean;
}
export interface Located {
  stored: StoredNote;
  access: Access;
}

const tooLarge = (field: string, description: string) =>
  new TooLarge(description, { fields: [{ field, message: description }] });

function assertContentSize(content: string | undefined): void {
  if (content !== undefined && Buffer.byteLength(content, 'utf8') > MAX_CONTENT_BYTES) {
    throw tooLarge('content', `content must be at most ${MAX_CONTENT_BYTES} bytes of UTF-8`);
  }
}

function assertPermissions(read: NoteRecord['readPermission'], write: NoteRecord['writePermission']): void {
  if (!permissionsConsistent(read, write)) {
    const message = `writePermission "${write}" is broader than readPermission "${read}"`;
    throw new Invalid('One or more fields are invalid', { fields: [{ field: 'writePermission', message }] });
  }
}

const permalinkTaken = (permalink: string | null) =>
  new Conflict(`The permalink "${permalink}" is already used by another note of the same owner`, {
    fields: [{ field: 'permalink', message: 'already in use' }],
  });
/** A note's writes: again on a fresh read when its save lost (AGAIN), at most WRITE_ATTEMPTS times. */
const WRITE_RETRY: RetryPolicy = {
  attempts: WRITE_ATTEMPTS,
  exhausted: () => new Conflict('The note is being changed concurrently; retry the request'),
};
/** A save that lost to another write of the note, or found it gone (the read of the next attempt tells). */
const changedMeanwhile = (err: unknown) => isConflict(err, 'version') || err instanceof NotFound;

export interface NotesDependencies {
  store: NotesStore;
  /** The image store, wired only where images are uploaded or deleted (unwired: lib/domain/only.ts). */
  images?: ImageStore;
  /** Image detection, wired only where images are uploaded (it is a sizeable library). */
  imageTypes?: ImageTypes;
  directory: Directory;
  clock: Clock;
  ids: Ids;
  /** The public link of a stored image, from its object key. */
  imageUrl: (key: string) => string;
  /** Where DeleteNote puts a note: the trash (lib/notes/trash/trash.ts); wired only into the deletes. */
  bin?: Bin;
  /** Keeps system versions of the content (lib/notes/revisions/versions.ts); wired only into the updates. */
  history?: ContentHistory;
  /** Told of every REST change of the content (live editing's documents follow it); wired into the updates. */
  contentListener?: ContentListener;
}

/** A condition the caller holds on the note (e.g. an If-Match ETag): false means it changed. */
export type Precondition = (note: NoteRecord) => boolean;

export class NotesService {
  private readonly store: NotesStore;
  private readonly images: ImageStore;
  private readonly directory: Directory;
  private readonly deps: Required<Pick<NotesDependencies, 'images' | 'imageTypes' | 'bin'>> &
    NotesDependencies;
  constructor(deps: NotesDependencies) {
    this.deps = {
      images: only<ImageStore>('images', {}),
      imageTypes: only<ImageTypes>('imageTypes', {}),
      bin: only<Bin>('bin', {}),
      ...deps,
    };
    ({ store: this.store, images: this.images, directory: this.directory } = this.deps);
  }

  listNotes(userId: string): Promise<NoteRecord[]> {
    return this.store.listNotes({ userId });
  }

  async listTeamNotes(userId: string, teamPath: string): Promise<NoteRecord[]> {
    await this.requireMember(this.caller(userId), teamPath);
    return this.store.listNotes({ teamPath });
  }

  history(userId: string, limit: number): Promise<NoteRecord[]> {
    return this.store.history(userId, limit);
  }

  /** `complete`: the request's Idempotency-Key completion, written with the note. */
  async createNote(
    userId: string,
    input: NoteCreation,
    teamPath?: string,
    complete?: (created: CreatedNote) => Completion,
  ): Promise<CreatedNote> {
    assertContentSize(input.content);
    const readPermission = readPermissionAfter(input, 'owner');
    const writePermission = input.writePermission ?? 'owner';
    assertPermissions(readPermission, writePermission);
    const caller = await this.signedIn(userId);
    if (teamPath) await this.requireMember(caller, teamPath);
    const content = input.content ?? '';
    const id = noteIdOf(this.deps.ids.bytes(16));
    const now = this.deps.clock.now();
    const explicitTitle = input.title || null;
    const note: NoteRecord = {
      id,
      shortId: shortIdOf(id),
      ownerId: teamPath ? null : userId,
      userPath: teamPath ? null : caller.user!.userPath,
      teamPath: teamPath ?? null,
      title: titleFor(explicitTitle, content),
      explicitTitle,
      tags: input.tags ?? tagsOf(content) ?? [],
      description: input.description ?? '',
      createdAt: now,
      lastChangedAt: now,
      titleUpdatedAt: null,
      tagsUpdatedAt: null,
      lastChangeUser: simpleProfile(caller.user!),
      publishType: 'edit',
      publishedAt: null,
      permalink: input.permalink ?? null,
      readPermission,
      writePermission,
      commentPermission: input.commentPermission ?? 'signed_in_users',
      suggestEditPermission: input.suggestEditPermission ?? 'signed_in_users',
      parentFolderId: input.parentFolderId || null,
      origin: input.origin ?? null,
      noteFeatures: input.noteFeatures ?? null,
      version: 1,
      contentVersion: 1,
      ...caller.hookMark(teamPath),
    };
    return this.insert({ note, content }, userId, complete);
  }

  /**
   * Writes a new note; one whose parentFolderId names no folder of its workspace is written at the
   * top level instead, `misplaced` saying why (as HackMD answers: the note is created, only its
   * placement failed).
   */
  private async insert(
    created: CreatedNote,
    userId: string,
    complete?: (created: CreatedNote) => Completion,
  ): Promise<CreatedNote> {
    try {
      await this.store.createNote(created.note, created.content, userId, complete?.(created));
      return created;
    } catch (err) {
      if (isConflict(err, 'permalink')) throw permalinkTaken(created.note.permalink);
      if (!isConflict(err, 'folder') || created.misplaced) throw err;
      const misplaced = `No folder ${created.note.parentFolderId} in the note's workspace: the note was created at the top level`;
      const atTop = { ...created.note, parentFolderId: null };
      return this.insert({ ...created, note: atTop, misplaced }, userId, complete);
    }
  }

  /** Reads a note and records the read in the caller's history. */
  async getNote(userId: string, ref: string, teamPath?: string): Promise<NoteWithContent> {
    const { stored } = await this.locate(this.caller(userId), ref, teamPath);
    await this.store.recordVisit(stored.note, userId);
    return stored;
  }

  /**
   * Changes the fields present in `changes`. `precondition` (the caller's If-Match) must hold on the
   * current note (PreconditionFailed otherwise). Concurrent writers never overwrite each other: each
   * write is conditional on the version read; without a precondition a lost race is retried on the
   * fresh note.
   */
  async updateNote(
    userId: string,
    ref: string,
    changes: NoteChanges,
    opts: { teamPath?: string; precondition?: Precondition } = {},
  ): Promise<NoteWithContent> {
    assertContentSize(changes.content);
    const caller = await this.signedIn(userId);
    return retryOnConflict(WRITE_RETRY, async () => {
      const { stored, access } = await this.locate(caller, ref, opts.teamPath);
      if (opts.precondition && !opts.precondition(stored.note)) {
        throw new PreconditionFailed('The note has changed since the ETag in If-Match was issued');
      }
      if (!access.write) throw new Forbidden('You may read this note but not change it');
      if (MANAGER_FIELDS.some((f) => changes[f] !== undefined) && !access.manage) {
        const who = stored.note.teamPath ? 'team members' : 'owner';
        throw new Forbidden(`Only the note's ${who} may change ${MANAGER_FIELDS.join(', ')}`);
      }
      const next = applyChanges(stored, changes, caller.user!, this.deps.clock.now());
      if (!next) {
        await this.store.recordVisit(stored.note, userId);
        return stored;
      }
      if (next.contentChanged) next.note.restContentVersion = next.note.version;
      assertPermissions(next.note.readPermission, next.note.writePermission);
      const save = () =>
        this.store.saveNote(stored, next.note, next.contentChanged ? next.content : undefined, userId);
      try {
        if (next.contentChanged && this.deps.history)
          await this.deps.history.changeContent(stored, next.note, next.content, caller.user!, save);
        else await save();
      } catch (err) {
        if (isConflict(err, 'permalink')) throw permalinkTaken(next.note.permalink);
        if (isConflict(err, 'folder')) throw unknownFolder();
        if (changedMeanwhile(err)) return AGAIN; // read again: a note deleted meanwhile is then 404
        throw err;
      }
      if (next.contentChanged)
        await this.deps.contentListener?.contentChanged(next.note, stored.content, next.content, userId);
      return next;
    });
  }

  async deleteNote(userId: string, ref: string, teamPath?: string): Promise<void> {
    const caller = this.caller(userId);
    await retryOnConflict(WRITE_RETRY, async () => {
      const { stored, access } = await this.locate(caller, ref, teamPath, { visitors: true });
      if (!access.manage)
        throw new Forbidden(
          `Only the note's ${stored.note.teamPath ? 'team members' : 'owner'} may delete it`,
        );
      return (await this.deps.bin.moveToTrash(stored, userId)) ? undefined : AGAIN;
    });
  }

  /** Stores an image for the note; returns its public link. */
  async uploadImage(userId: string, ref: string, bytes: Buffer): Promise<string> {
    if (bytes.length > MAX_IMAGE_BYTES)
      throw tooLarge('image', `image must be at most ${MAX_IMAGE_BYTES} bytes`);
    const type = await this.deps.imageTypes.detect(bytes);
    if (!type || !IMAGE_TYPES.has(type.mime)) {
      const fields = [{ field: 'image', message: 'not a PNG, JPEG, GIF or WebP image' }];
      throw new Unsupported('image must be a PNG, JPEG, GIF or WebP image', { fields });
    }
    if (isPolyglot(bytes, type.mime)) {
      throw new Unsupported('image also reads as HTML or script (a polyglot)', {
        fields: [{ field: 'image', message: 'contains HTML or script markup' }],
      });
    }
    const { stored, access } = await this.locate(this.caller(userId), ref);
    if (!access.write) throw new Forbidden('You may read this note but not change it');
    const key = await this.images.put(stored.note.id, bytes, type);
    return this.deps.imageUrl(key);
  }

  /** A note the caller may read, and what else they may do with it (versions, comments, live editing). */
  openNote(userId: string, ref: string, teamPath?: string): Promise<Located> {
    return this.locate(this.caller(userId), ref, teamPath);
  }

  /**
   * The note's content as stored and its version, for live editing to start its document from; the
   * note is marked live first (NoteRecord.live), so REST content changes reach the document.
   * Undefined when gone.
   */
  async startLive(shortId: string): Promise<{ content: string; version: number } | undefined> {
    try {
      await this.store.markLive(shortId);
    } catch (err) {
      if (err instanceof NotFound) return undefined;
      throw err;
    }
    const stored = await this.store.getNote(shortId);
    return stored && { content: stored.content, version: stored.note.version };
  }

  /**
   * Writes a live document's text as the note's content, edited by `editorId` (whose connection was
   * authorized): the REST content limit, versions and the editor's history entry as for an update.
   * False when the note is gone or nothing changes. `restVersion`: the last REST content write the
   * live document holds; a note whose content a later REST write set is left as it is (that write's
   * delta is on its way into the document, and its own flush follows).
   */
  async saveLiveContent(
    shortId: string,
    content: string,
    editorId: string,
    restVersion = Number.POSITIVE_INFINITY,
  ): Promise<boolean> {
    assertContentSize(content);
    const editor = await this.directory.getUserWithTeams(editorId);
    if (!editor) return false;
    return retryOnConflict(WRITE_RETRY, async () => {
      const stored = await this.store.getNote(shortId);
      if (!stored) return false;
      if ((stored.note.restContentVersion ?? 0) > restVersion) return true;
      const now = this.deps.clock.now();
      const next = applyChanges(stored, { content }, editor.user, now);
      if (!next) return true; // the content is the text already (the live log may still be compacted)
      next.note.liveChangedAt = now; // a live write: its webhook event waits for its window's end
      const save = () => this.store.saveNote(stored, next.note, next.content, editorId);
      try {
        if (this.deps.history)
          await this.deps.history.changeContent(stored, next.note, next.content, editor.user, save);
        else await save();
      } catch (err) {
        if (changedMeanwhile(err)) return AGAIN;
        throw err;
      }
      return true;
    });
  }

  private caller(userId: string): Caller {
    return new Caller(userId, this.directory);
  }

  /** The caller with their profile and teams (one read), for operations that write notes. */
  private async signedIn(userId: string): Promise<Caller> {
    const me = await this.directory.getUserWithTeams(userId);
    if (!me) throw new Unauthenticated('The token belongs to a user that no longer exists');
    return new Caller(
      userId,
      this.directory,
      me.user,
      me.teams.map((t) => t.path),
      me.hookedWorkspaces,
    );
  }

  /** 403 for a team the caller is not a member of, 404 for an unknown team. */
  private async requireMember(caller: Caller, teamPath: string): Promise<void> {
    if (await caller.isMember(teamPath)) return;
    if (await this.directory.getTeam(teamPath))
      throw new Forbidden(`You are not a member of team "${teamPath}"`);
    throw new NotFound(`Team "${teamPath}" does not exist`);
  }

  /** Finds a note by id or shortId (within the team when given) that the caller may read. */
  private async locate(
    caller: Caller,
    ref: string,
    teamPath?: string,
    opts: { visitors?: boolean } = {},
  ): Promise<Located> {
    if (teamPath) await this.requireMember(caller, teamPath);
    const shortId =
      ref.length === ID_LENGTH ? shortIdOf(ref) : ref.length === SHORT_ID_LENGTH ? ref : undefined;
    const stored = shortId ? await this.store.getNote(shortId, opts) : undefined;
    const found =
      stored &&
      (ref.length !== ID_LENGTH || stored.note.id === ref) &&
      (!teamPath || stored.note.teamPath === teamPath);
    const access = found ? await this.access(stored.note, caller) : undefined;
    if (!stored || !access?.read) throw new NotFound('The note does not exist');
    return { stored, access };
  }

  private async access(note: NoteRecord, caller: Caller): Promise<Access> {
    const manage = note.teamPath ? await caller.isMember(note.teamPath) : note.ownerId === caller.userId;
    return {
      manage,
      read: manage || opensToSignedIn(note.readPermission),
      write: manage || opensToSignedIn(note.writePermission),
    };
  }
}

/** The note after `changes`, or undefined when nothing would change. */
function applyChanges(
  stored: StoredNote,
  changes: NoteChanges,
  editor: User,
  now: number,
): (NoteWithContent & { contentChanged: boolean }) | undefined {
  const old = stored.note;
  const content = changes.content ?? stored.content;
  const explicitTitle = changes.title === undefined ? old.explicitTitle : changes.title || null;
  const title = titleFor(explicitTitle, content);
  // Explicit tags win; otherwise new content with a tags line sets them (as a heading sets the title).
  const tags = changes.tags ?? (changes.content === undefined ? undefined : tagsOf(content)) ?? old.tags;
  const contentChanged = content !== stored.content;
  const tagsChanged = JSON.stringify(tags) !== JSON.stringify(old.tags);
  const note: NoteRecord = {
    ...old,
    title,
    explicitTitle,
    tags,
    description: changes.description ?? old.description,
    readPermission: readPermissionAfter(changes, old.readPermission),
    writePermission: changes.writePermission ?? old.writePermission,
    permalink: changes.permalink ?? old.permalink,
    parentFolderId:
      changes.parentFolderId === undefined ? old.parentFolderId : changes.parentFolderId || null,
  };
  const changed =
    contentChanged ||
    explicitTitle !== old.explicitTitle ||
    (
      [
        'title',
        'tags',
        'description',
        'readPermission',
        'writePermission',
        'permalink',
        'parentFolderId',
      ] as const
    ).some((f) => JSON.stringify(note[f]) !== JSON.stringify(old[f]));
  if (!changed) return undefined;
  Object.assign(note, {
    lastChangedAt: now,
    version: old.version + 1,
    titleUpdatedAt: title !== old.title ? now : old.titleUpdatedAt,
    tagsUpdatedAt: tagsChanged ? now : old.tagsUpdatedAt,
    lastChangeUser: contentChanged ? simpleProfile(editor) : old.lastChangeUser,
    ...(contentChanged ? { contentVersion: old.version + 1 } : {}),
  });
  return { note, content, contentChanged };
}
