// Notes use cases. Plain values in, records out; failures are ApiErrors. Permissions (spec/notes.md):
// read = owner, a member of the note's team, or anyone signed in when readPermission is broader than
// owner; write likewise with writePermission; manage (permissions, permalink, folder, delete) = owner,
// or any member for team notes. A note the caller may not read is 404.
import { fileTypeFromBuffer } from 'file-type';
import { IdempotencyKeys, type Completion } from '../domain/idempotency.ts';
import { config } from '../config.ts';
import { etagListed } from '../http/conditional.ts';
import { ApiError, forbidden, notFound, unauthorized, validationFailed } from '../http/errors.ts';
import { identity } from '../identity/service.ts';
import { simpleProfile, type User } from '../identity/model.ts';
import { DynamoNotesStore } from './dynamo-store.ts';
import {
  etagOf, ID_LENGTH, MANAGER_FIELDS, MAX_CONTENT_BYTES, MAX_IMAGE_BYTES, newNoteId, opensToSignedIn,
  permissionsConsistent, SHORT_ID_LENGTH, shortIdOf, titleFor,
  type NoteChanges, type NoteCreation, type NoteRecord, type NoteWithContent,
} from './model.ts';
import { isPolyglot } from './polyglot.ts';
import { S3ImageStore } from './s3-images.ts';
import { IdempotencyLeaseLost, PermalinkTakenError, type Directory, type ImageStore, type NotesStore, type StoredNote } from './store.ts';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Attempts of a read-modify-write before giving up under contention. */
const WRITE_ATTEMPTS = 3;

/** The calling user; team memberships are looked up once each, or known from the user's team list. */
class Caller {
  private readonly memberships: Map<string, boolean>;
  private readonly allTeamsKnown: boolean;
  constructor(readonly userId: string, private readonly directory: Directory, readonly user?: User, teams?: string[]) {
    this.memberships = new Map((teams ?? []).map((t) => [t, true]));
    this.allTeamsKnown = teams !== undefined;
  }

  async isMember(teamPath: string): Promise<boolean> {
    const known = this.memberships.get(teamPath) ?? (this.allTeamsKnown ? false : undefined);
    if (known !== undefined) return known;
    const member = await this.directory.isMember(teamPath, this.userId);
    this.memberships.set(teamPath, member);
    return member;
  }
}

interface Access { read: boolean; write: boolean; manage: boolean }
interface Located { stored: StoredNote; access: Access }

const tooLarge = (field: string, description: string) =>
  new ApiError('payload_too_large', description, { fields: [{ field, message: description }] });

function assertContentSize(content: string | undefined): void {
  if (content !== undefined && Buffer.byteLength(content, 'utf8') > MAX_CONTENT_BYTES) {
    throw tooLarge('content', `content must be at most ${MAX_CONTENT_BYTES} bytes of UTF-8`);
  }
}

function assertPermissions(read: NoteRecord['readPermission'], write: NoteRecord['writePermission']): void {
  if (!permissionsConsistent(read, write)) {
    throw validationFailed([{ field: 'writePermission', message: `writePermission "${write}" is broader than readPermission "${read}"` }]);
  }
}

const permalinkTaken = (permalink: string | null) => new ApiError('conflict', `The permalink "${permalink}" is already used by another note of the same owner`, { fields: [{ field: 'permalink', message: 'already in use' }] });

export class NotesService {
  constructor(private readonly store: NotesStore, private readonly images: ImageStore, private readonly directory: Directory) {}

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
  async createNote(userId: string, input: NoteCreation, teamPath?: string, complete?: (created: NoteWithContent) => Completion): Promise<NoteWithContent> {
    assertContentSize(input.content);
    const readPermission = input.readPermission ?? 'owner';
    const writePermission = input.writePermission ?? 'owner';
    assertPermissions(readPermission, writePermission);
    const caller = await this.signedIn(userId);
    if (teamPath) await this.requireMember(caller, teamPath);
    const content = input.content ?? '';
    const id = newNoteId();
    const now = Date.now();
    const explicitTitle = input.title || null;
    const note: NoteRecord = {
      id, shortId: shortIdOf(id),
      ownerId: teamPath ? null : userId, userPath: teamPath ? null : caller.user!.userPath, teamPath: teamPath ?? null,
      title: titleFor(explicitTitle, content), explicitTitle,
      tags: input.tags ?? [], description: input.description ?? '',
      createdAt: now, lastChangedAt: now, titleUpdatedAt: null, tagsUpdatedAt: null,
      lastChangeUser: simpleProfile(caller.user!), publishType: 'edit', publishedAt: null, permalink: input.permalink ?? null,
      readPermission, writePermission,
      commentPermission: input.commentPermission ?? 'signed_in_users', suggestEditPermission: input.suggestEditPermission ?? 'signed_in_users',
      parentFolderId: input.parentFolderId ?? null, origin: input.origin ?? null, noteFeatures: input.noteFeatures ?? null,
      version: 1,
    };
    try {
      await this.store.createNote(note, content, userId, complete?.({ note, content }));
    } catch (err) {
      if (err instanceof PermalinkTakenError) throw permalinkTaken(note.permalink);
      if (err instanceof IdempotencyLeaseLost) throw new ApiError('idempotency_error', 'The Idempotency-Key was taken over by another request; retry');
      throw err;
    }
    return { note, content };
  }

  /** Reads a note and records the read in the caller's history. */
  async getNote(userId: string, ref: string, teamPath?: string): Promise<NoteWithContent> {
    const { stored } = await this.locate(this.caller(userId), ref, teamPath);
    if (!(await this.store.recordVisit(stored.note, userId))) throw notFound('The note does not exist');
    return stored;
  }

  /**
   * Changes the fields present in `changes`. `ifMatch` (an If-Match value) must list the current
   * ETag (412 otherwise). Concurrent writers never overwrite each other: each write is conditional on
   * the version read; without If-Match a lost race is retried on the fresh note.
   */
  async updateNote(userId: string, ref: string, changes: NoteChanges, opts: { teamPath?: string; ifMatch?: string } = {}): Promise<NoteWithContent> {
    assertContentSize(changes.content);
    const caller = await this.signedIn(userId);
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt += 1) {
      const { stored, access } = await this.locate(caller, ref, opts.teamPath);
      if (opts.ifMatch !== undefined && !etagListed(opts.ifMatch, etagOf(stored.note), false)) {
        throw new ApiError('precondition_failed', 'The note has changed since the ETag in If-Match was issued');
      }
      if (!access.write) throw forbidden('You may read this note but not change it');
      if (MANAGER_FIELDS.some((f) => changes[f] !== undefined) && !access.manage) {
        throw forbidden(`Only the note's ${stored.note.teamPath ? 'team members' : 'owner'} may change ${MANAGER_FIELDS.join(', ')}`);
      }
      const next = applyChanges(stored, changes, caller.user!);
      if (!next) {
        if (!(await this.store.recordVisit(stored.note, userId))) continue;
        return stored;
      }
      assertPermissions(next.note.readPermission, next.note.writePermission);
      try {
        if (await this.store.saveNote(stored, next.note, next.contentChanged ? next.content : undefined, userId)) return next;
      } catch (err) {
        if (err instanceof PermalinkTakenError) throw permalinkTaken(next.note.permalink);
        throw err;
      }
    }
    throw new ApiError('conflict', 'The note is being changed concurrently; retry the request');
  }

  async deleteNote(userId: string, ref: string, teamPath?: string): Promise<void> {
    const caller = this.caller(userId);
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt += 1) {
      const { stored, access } = await this.locate(caller, ref, teamPath, { visitors: true });
      if (!access.manage) throw forbidden(`Only the note's ${stored.note.teamPath ? 'team members' : 'owner'} may delete it`);
      if (await this.store.deleteNote(stored)) {
        await this.images.deleteAll(stored.note.id);
        return;
      }
    }
    throw new ApiError('conflict', 'The note is being changed concurrently; retry the request');
  }

  /** Stores an image for the note; returns its public link. */
  async uploadImage(userId: string, ref: string, bytes: Buffer): Promise<string> {
    if (bytes.length > MAX_IMAGE_BYTES) throw tooLarge('image', `image must be at most ${MAX_IMAGE_BYTES} bytes`);
    const type = await fileTypeFromBuffer(bytes);
    if (!type || !IMAGE_TYPES.has(type.mime)) {
      throw new ApiError('unsupported_media_type', 'image must be a PNG, JPEG, GIF or WebP image', { fields: [{ field: 'image', message: 'not a PNG, JPEG, GIF or WebP image' }] });
    }
    if (isPolyglot(bytes, type.mime)) {
      throw new ApiError('unsupported_media_type', 'image also reads as HTML or script (a polyglot)', { fields: [{ field: 'image', message: 'contains HTML or script markup' }] });
    }
    const { stored, access } = await this.locate(this.caller(userId), ref);
    if (!access.write) throw forbidden('You may read this note but not change it');
    const key = await this.images.put(stored.note.id, bytes, type);
    return `${config.imageBaseUrl}/${key}`;
  }

  private caller(userId: string): Caller {
    return new Caller(userId, this.directory);
  }

  /** The caller with their profile and teams (one read), for operations that write notes. */
  private async signedIn(userId: string): Promise<Caller> {
    const me = await this.directory.getUserWithTeams(userId);
    if (!me) throw unauthorized('The token belongs to a user that no longer exists');
    return new Caller(userId, this.directory, me.user, me.teams.map((t) => t.path));
  }

  /** 403 for a team the caller is not a member of, 404 for an unknown team. */
  private async requireMember(caller: Caller, teamPath: string): Promise<void> {
    if (await caller.isMember(teamPath)) return;
    if (await this.directory.getTeam(teamPath)) throw forbidden(`You are not a member of team "${teamPath}"`);
    throw notFound(`Team "${teamPath}" does not exist`);
  }

  /** Finds a note by id or shortId (within the team when given) that the caller may read. */
  private async locate(caller: Caller, ref: string, teamPath?: string, opts: { visitors?: boolean } = {}): Promise<Located> {
    if (teamPath) await this.requireMember(caller, teamPath);
    const shortId = ref.length === ID_LENGTH ? shortIdOf(ref) : ref.length === SHORT_ID_LENGTH ? ref : undefined;
    const stored = shortId ? await this.store.getNote(shortId, opts) : undefined;
    const found = stored && (ref.length !== ID_LENGTH || stored.note.id === ref) && (!teamPath || stored.note.teamPath === teamPath);
    const access = found ? await this.access(stored.note, caller) : undefined;
    if (!stored || !access?.read) throw notFound('The note does not exist');
    return { stored, access };
  }

  private async access(note: NoteRecord, caller: Caller): Promise<Access> {
    const manage = note.teamPath ? await caller.isMember(note.teamPath) : note.ownerId === caller.userId;
    return { manage, read: manage || opensToSignedIn(note.readPermission), write: manage || opensToSignedIn(note.writePermission) };
  }
}

/** The note after `changes`, or undefined when nothing would change. */
function applyChanges(stored: StoredNote, changes: NoteChanges, editor: User): (NoteWithContent & { contentChanged: boolean }) | undefined {
  const old = stored.note;
  const now = Date.now();
  const content = changes.content ?? stored.content;
  const explicitTitle = changes.title === undefined ? old.explicitTitle : changes.title || null;
  const title = titleFor(explicitTitle, content);
  const tags = changes.tags ?? old.tags;
  const contentChanged = content !== stored.content;
  const tagsChanged = JSON.stringify(tags) !== JSON.stringify(old.tags);
  const note: NoteRecord = {
    ...old,
    title, explicitTitle, tags,
    description: changes.description ?? old.description,
    readPermission: changes.readPermission ?? old.readPermission,
    writePermission: changes.writePermission ?? old.writePermission,
    permalink: changes.permalink ?? old.permalink,
    parentFolderId: changes.parentFolderId ?? old.parentFolderId,
  };
  const changed = contentChanged || explicitTitle !== old.explicitTitle ||
    (['title', 'tags', 'description', 'readPermission', 'writePermission', 'permalink', 'parentFolderId'] as const)
      .some((f) => JSON.stringify(note[f]) !== JSON.stringify(old[f]));
  if (!changed) return undefined;
  Object.assign(note, {
    lastChangedAt: now, version: old.version + 1,
    titleUpdatedAt: title !== old.title ? now : old.titleUpdatedAt,
    tagsUpdatedAt: tagsChanged ? now : old.tagsUpdatedAt,
    lastChangeUser: contentChanged ? simpleProfile(editor) : old.lastChangeUser,
  });
  return { note, content, contentChanged };
}

/** The container's notes service, over DynamoDB, S3 and the identity directory. */
const notesStore = new DynamoNotesStore(() => config.tableName);
export const notes = new NotesService(notesStore, new S3ImageStore(() => config.bucketName), identity);
export const notesIdempotency = new IdempotencyKeys(notesStore);
