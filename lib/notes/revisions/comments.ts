// Note comments: HackMD's four comment operations (list, get, resolve, reopen) and our extension
// to write them (create, edit and delete one's own), which HackMD's API leaves to its editor.
// Rules (docs/notes.md, Comments):
// - reading needs read access to the note and comments not `disabled`;
// - writing follows the note's commentPermission: disabled, forbidden → nobody; owners → the
//   note's owner (a team note: its members); signed_in_users, everyone → anyone who may read it;
// - editing and deleting: one's own comments only (editing also needs the right to comment);
//   deleting a thread head deletes its replies;
// - resolving or reopening acts on the comment's thread: anyone who may comment, and the note's
//   owner (team: members) even when comments are `forbidden`; 409 when the thread is already so;
// - an anchor {offset, length} (UTF-16 code units of the live content) is kept with the content it
//   was written on; `currentAnchor` maps it through the edits since (lib/notes/revisions/anchors.ts).
import { Conflict, Forbidden, Invalid, isConflict, NotFound } from '../../domain/errors.ts';
import type { Clock } from '../../domain/clock.ts';
import { AGAIN, type RetryPolicy, retryOnConflict } from '../../domain/retry.ts';
import type { Ids } from '../../domain/ids.ts';
import type { User } from '../../identity/model.ts';
import {
  type Anchor,
  DIFF_TIMEOUT_MS,
  excerptOf,
  followRuns,
  type Runs,
  runsBetween,
  snapToCodePoints,
} from './anchors.ts';
import { hookMarkOf, type NoteRecord } from '../kernel/model.ts';
import { contentHash, type NoteOpener, timeOrderedId, type UserLookup } from './versions.ts';
import type { Access } from '../notes/service.ts';

/** A comment body's most characters, counted as Unicode code points (as JSON Schema's maxLength counts). */
export const MAX_COMMENT_BODY = 4096;

/**
 * Characters that show nothing: white space, control and format characters (zero-width space and
 * joiners, the byte-order mark, bidirectional marks, the soft hyphen), the other default-ignorable
 * code points (variation selectors, Hangul fillers, the combining grapheme joiner) and the blank
 * Braille pattern.
 */
const INVISIBLE = /^[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]*$/u;

/** Whether a comment body shows nothing at all (only invisible characters, or none). */
export const isBlankBody = (body: string): boolean => INVISIBLE.test(body);

/** Whether a body has at most MAX_COMMENT_BODY code points (a pair of UTF-16 surrogates is one). */
export function withinBodyLimit(body: string): boolean {
  if (body.length <= MAX_COMMENT_BODY) return true;
  let n = 0;
  for (const _ of body) if (++n > MAX_COMMENT_BODY) return false;
  return true;
}
/** Replies per thread (a head and its replies are deleted in one transaction of at most 100 items). */
export const MAX_REPLIES = 99;
export const DEFAULT_COMMENT_LIMIT = 50;
export const MAX_COMMENT_LIMIT = 100;

export type CommentStatus = 'open' | 'hidden';
export interface StateActor {
  kind: 'user';
  userId: string;
  displayName: string;
}
export interface CommentState {
  status: CommentStatus;
  reason: 'resolved' | null;
  actedBy: StateActor | null;
  actedAt: number | null;
}
export interface ThreadState extends CommentState {
  sourceCommentId: string;
}

export interface CommentRecord {
  id: string;
  threadId: string;
  authorId: string;
  authorName: string;
  body: string;
  state: CommentState;
  anchor: Anchor | null;
  /** SHA-256 of the content the anchor was written on (its copy: CommentStore.base). */
  anchorBase: string | null;
  /** The anchored text when written: excerptOf (anchors.ts), at most MAX_EXCERPT_CHARS characters, ending in `…` when cut. */
  excerpt: string | null;
  /** The anchored text was longer than the excerpt (absent on comments written before the cap). */
  excerptTruncated?: boolean;
  createdAt: number;
  updatedAt: number;
  isThreadHead: boolean;
  /** Thread heads only. */
  replyCount: number;
  threadState: ThreadState | null;
  /** Bumped by every change: the optimistic lock. */
  rev: number;
  /** Internal, never presented: its note's workspace has a webhook (NoteRecord.hooked). */
  hooked?: true;
}

export interface CommentStore {
  /** Every comment of the note, oldest first. */
  list(shortId: string): Promise<CommentRecord[]>;
  get(shortId: string, commentId: string): Promise<CommentRecord | undefined>;
  /**
   * Writes a comment (and the content its anchor was written on); a reply also counts into its head,
   * in the write's condition: NotFound when the head is gone, Conflict('replies') when it has
   * MAX_REPLIES replies, Conflict('busy') when a concurrent write to the thread stopped it.
   */
  create(shortId: string, c: CommentRecord, base?: { hash: string; content: string }): Promise<void>;
  /** Replaces comments read at their `rev` (one transaction); false when one changed meanwhile. */
  save(shortId: string, changed: CommentRecord[]): Promise<boolean>;
  /** Deletes the comments read at their `rev` (a reply also counts out of its head); false if changed. */
  remove(shortId: string, removed: CommentRecord[], head?: CommentRecord): Promise<boolean>;
  /** The content an anchor was written on. */
  base(shortId: string, hash: string): Promise<string | undefined>;
  /** How the content `baseHash` maps into the content `liveHash`, as a read stored it (keepRuns). */
  runs(shortId: string, baseHash: string, liveHash: string): Promise<Runs | undefined>;
  /** Keeps the runs from one content to another, for the next read (expires on its own). */
  keepRuns(shortId: string, baseHash: string, liveHash: string, runs: Runs): Promise<void>;
}

/** The most time one request spends diffing contents to follow anchors (one diff per content). */
export const REQUEST_DIFF_BUDGET_MS = 1000;

export interface CommentQuery {
  page?: number;
  limit?: number;
  sort?: 'asc' | 'desc';
  threadId?: string;
  commentStatus?: CommentStatus;
  threadStatus?: CommentStatus;
  isThreadHead?: boolean;
}
export interface CommentInput {
  body: string;
  anchor?: Anchor;
  threadId?: string;
}

/** A comment as shown: its thread's state and where its anchor is now. */
export interface ShownComment {
  comment: CommentRecord;
  thread: ThreadState;
  currentAnchor: Anchor | null;
}

const ATTEMPTS = 3;
const open = (): CommentState => ({ status: 'open', reason: null, actedBy: null, actedAt: null });
const invalid = (field: string, message: string) =>
  new Invalid(`${field} ${message}`, { fields: [{ field, message }] });
const noComment = () => new NotFound('The note has no such comment');
const busy = () => new Conflict('The comment is being changed concurrently; retry the request');
const tooManyReplies = () => invalid('threadId', `has ${MAX_REPLIES} replies, the most a thread takes`);
/** Tries of a reply whose transaction met another on the same thread head (DynamoDB's TransactionConflict). */
const REPLY_ATTEMPTS = 6;
/** A comment's change: written conditionally on what was read, again on a fresh read. */
const COMMENT_RETRY: RetryPolicy = { attempts: ATTEMPTS, exhausted: busy };
/** A reply whose transaction met another on its thread head: again after a random wait, longer each time. */
const REPLY_RETRY: RetryPolicy = {
  attempts: REPLY_ATTEMPTS,
  conflict: (err) => isConflict(err, 'busy'),
  exhausted: busy,
  backoff: (made) => 10 + Math.random() * 40 * made,
};

function mayComment(note: NoteRecord, access: Access): boolean {
  switch (note.commentPermission) {
    case 'owners':
      return access.manage;
    case 'signed_in_users':
    case 'everyone':
      return access.read;
    default:
      return false;
  }
}

export class CommentService {
  constructor(
    private readonly store: CommentStore,
    private readonly open: NoteOpener,
    private readonly users: UserLookup,
    private readonly clock: Clock,
    private readonly ids: Ids,
  ) {}

  async list(userId: string, ref: string, q: CommentQuery) {
    const { note, content } = await this.readable(userId, ref);
    const all = await this.store.list(note.shortId);
    const heads = new Map(all.filter((c) => c.isThreadHead).map((c) => [c.id, c]));
    const matching = all.filter((c) => {
      const thread = heads.get(c.threadId)?.threadState;
      return (
        thread &&
        (!q.threadId || c.threadId === q.threadId) &&
        (!q.commentStatus || c.state.status === q.commentStatus) &&
        (!q.threadStatus || thread.status === q.threadStatus) &&
        (!q.isThreadHead || c.isThreadHead)
      );
    });
    if (q.sort === 'desc') matching.reverse();
    const page = q.page ?? 1;
    const limit = q.limit ?? DEFAULT_COMMENT_LIMIT;
    const shown = matching.slice((page - 1) * limit, page * limit);
    return {
      comments: await this.show(note.shortId, content, shown, heads),
      page,
      limit,
      hasNext: matching.length > page * limit,
    };
  }

  async get(userId: string, ref: string, commentId: string): Promise<ShownComment> {
    const { note, content } = await this.readable(userId, ref);
    return this.one(note.shortId, content, commentId);
  }

  /** Our extension: a thread head (optionally anchored), or a reply to `threadId`. */
  async create(userId: string, ref: string, input: CommentInput): Promise<ShownComment> {
    const { stored, access } = await this.open(userId, ref);
    const { note, content } = stored;
    this.requireReadable(note);
    if (!mayComment(note, access)) throw this.notAllowed(note);
    const author = await this.users(userId);
    const body = checkedBody(input.body);
    const now = this.clock.now();
    const id = timeOrderedId(now, this.ids.bytes(10));
    let head: CommentRecord | undefined;
    if (input.threadId !== undefined) {
      if (input.anchor) throw invalid('anchor', "a reply takes its thread's anchor: send no anchor");
      head = await this.store.get(note.shortId, input.threadId);
      if (!head?.isThreadHead) throw invalid('threadId', 'is not a thread of this note');
      if (head.replyCount >= MAX_REPLIES) throw tooManyReplies();
    }
    if (input.anchor && input.anchor.offset + input.anchor.length > content.length)
      throw invalid('anchor', `must lie within the content (${content.length} characters)`);
    const anchor = input.anchor ? snapToCodePoints(content, input.anchor) : null;
    const excerpt = anchor ? excerptOf(content.slice(anchor.offset, anchor.offset + anchor.length)) : null;
    const hash = anchor ? contentHash(content) : null;
    const comment: CommentRecord = {
      id,
      threadId: head?.id ?? id,
      authorId: author.id,
      authorName: author.name,
      body,
      state: open(),
      anchor,
      anchorBase: hash,
      excerpt: excerpt?.excerpt ?? null,
      excerptTruncated: excerpt?.truncated ?? false,
      createdAt: now,
      updatedAt: now,
      isThreadHead: !head,
      replyCount: 0,
      threadState: head ? null : { ...open(), sourceCommentId: id },
      rev: 1,
      ...hookMarkOf(note),
    };
    await retryOnConflict(
      { ...REPLY_RETRY, sleep: (ms) => this.clock.sleep?.(ms) ?? Promise.resolve() },
      async () => {
        try {
          await this.store.create(note.shortId, comment, hash ? { hash, content } : undefined);
        } catch (err) {
          if (err instanceof NotFound) throw invalid('threadId', 'is not a thread of this note');
          if (isConflict(err, 'replies')) throw tooManyReplies();
          throw err;
        }
      },
    );
    return { comment, thread: head?.threadState ?? comment.threadState!, currentAnchor: anchor };
  }

  /** Our extension: changes the body of one's own comment. */
  async edit(userId: string, ref: string, commentId: string, body: string): Promise<ShownComment> {
    const { stored, access } = await this.open(userId, ref);
    this.requireReadable(stored.note);
    const text = checkedBody(body);
    return retryOnConflict(COMMENT_RETRY, async () => {
      const c = await this.store.get(stored.note.shortId, commentId);
      if (!c) throw noComment();
      if (c.authorId !== userId) throw new Forbidden('Only its author may change a comment');
      if (!mayComment(stored.note, access)) throw this.notAllowed(stored.note);
      const next = {
        ...c,
        body: text,
        updatedAt: this.clock.now(),
        rev: c.rev + 1,
        ...hookMarkOf(stored.note),
      };
      if (!(await this.store.save(stored.note.shortId, [next]))) return AGAIN;
      const head = next.isThreadHead ? next : await this.store.get(stored.note.shortId, next.threadId);
      if (!head?.threadState) throw noComment();
      return {
        comment: next,
        thread: head.threadState,
        currentAnchor: await this.current(stored.note.shortId, stored.content, next),
      };
    });
  }

  /** Our extension: deletes one's own comment (a thread head with its replies). */
  async delete(userId: string, ref: string, commentId: string): Promise<void> {
    const { note } = await this.readable(userId, ref);
    await retryOnConflict(COMMENT_RETRY, async () => {
      const all = await this.store.list(note.shortId);
      const c = all.find((x) => x.id === commentId);
      if (!c) throw noComment();
      if (c.authorId !== userId) throw new Forbidden('Only its author may delete a comment');
      const removed = c.isThreadHead ? all.filter((x) => x.threadId === c.id) : [c];
      const head = c.isThreadHead ? undefined : all.find((x) => x.id === c.threadId);
      return (await this.store.remove(note.shortId, removed, head)) ? undefined : AGAIN;
    });
  }

  /** PUT resolution (resolve = true) or DELETE resolution: the comment's thread resolved or reopened. */
  async resolve(userId: string, ref: string, commentId: string, resolve: boolean) {
    const { stored, access } = await this.open(userId, ref);
    const { note } = stored;
    this.requireReadable(note);
    if (!(access.manage || mayComment(note, access)))
      throw new Forbidden("The note's comment permission does not let you resolve its comments");
    const actor = await this.users(userId);
    return retryOnConflict(COMMENT_RETRY, async () => {
      const c = await this.store.get(note.shortId, commentId);
      if (!c) throw noComment();
      const head = c.isThreadHead ? c : await this.store.get(note.shortId, c.threadId);
      if (!head?.threadState) throw noComment();
      const resolved = head.threadState.status === 'hidden';
      if (resolved === resolve)
        throw new Conflict(`The thread is already ${resolve ? 'resolved' : 'open'}`, {
          details: {
            errorCode: resolve ? 'comment_already_resolved' : 'comment_not_resolved',
            commentState: c.state,
          },
        });
      const now = this.clock.now();
      const state: CommentState = resolve
        ? { status: 'hidden', reason: 'resolved', actedBy: stateActor(actor), actedAt: now }
        : { status: 'open', reason: null, actedBy: stateActor(actor), actedAt: now };
      const thread: ThreadState = { ...state, sourceCommentId: c.id };
      const source = head.threadState.sourceCommentId;
      const changed = new Map<string, CommentRecord>();
      const touch = (x: CommentRecord, patch: Partial<CommentRecord>) =>
        changed.set(x.id, {
          ...(changed.get(x.id) ?? x),
          ...patch,
          updatedAt: now,
          rev: x.rev + 1,
          ...hookMarkOf(note),
        });
      touch(c, { state });
      // Reopening also reopens the comment that resolved the thread.
      if (!resolve && source !== c.id) {
        const s = source === head.id ? head : await this.store.get(note.shortId, source);
        if (s) touch(s, { state });
      }
      touch(head, { threadState: thread });
      if (!(await this.store.save(note.shortId, [...changed.values()]))) return AGAIN;
      const shown = changed.get(c.id)!;
      return {
        comment: {
          comment: shown,
          thread,
          currentAnchor: await this.current(note.shortId, stored.content, shown),
        },
        cascade: { threadId: head.id },
      };
    });
  }

  private async readable(userId: string, ref: string): Promise<{ note: NoteRecord; content: string }> {
    const { stored } = await this.open(userId, ref);
    this.requireReadable(stored.note);
    return stored;
  }

  private requireReadable(note: NoteRecord): void {
    if (note.commentPermission === 'disabled') throw new Forbidden('Comments are disabled on this note');
  }

  private notAllowed(note: NoteRecord): Forbidden {
    return new Forbidden(
      note.commentPermission === 'owners'
        ? "Only the note's owner (a team note: its members) may comment on it"
        : 'Comments on this note are closed',
    );
  }

  private async one(shortId: string, content: string, commentId: string): Promise<ShownComment> {
    const c = await this.store.get(shortId, commentId);
    if (!c) throw noComment();
    const head = c.isThreadHead ? c : await this.store.get(shortId, c.threadId);
    if (!head?.threadState) throw noComment();
    const [shown] = await this.show(shortId, content, [c], new Map([[head.id, head]]));
    return shown;
  }

  /** Each comment with its thread's state and its anchor mapped to the live content. */
  private async show(
    shortId: string,
    content: string,
    comments: CommentRecord[],
    heads: Map<string, CommentRecord>,
  ): Promise<ShownComment[]> {
    const anchors = await this.currentAnchors(shortId, content, comments);
    return comments.map((c) => ({
      comment: c,
      thread: heads.get(c.threadId)!.threadState!,
      currentAnchor: anchors.get(c.id) ?? null,
    }));
  }

  private async current(shortId: string, content: string, c: CommentRecord): Promise<Anchor | null> {
    return (await this.currentAnchors(shortId, content, [c])).get(c.id) ?? null;
  }

  /**
   * Where each anchored comment's anchor is in the live content. One mapping per content the
   * anchors were written on: stored by an earlier read, else diffed (each diff bounded by the
   * library's limits, all of them by REQUEST_DIFF_BUDGET_MS) and stored for the next read. A diff
   * given less than its full time (the budget running out) is not stored, so a later read redoes it;
   * with no time left a content maps by its unchanged beginning and end only (its middle counts as
   * rewritten).
   */
  private async currentAnchors(
    shortId: string,
    content: string,
    comments: CommentRecord[],
  ): Promise<Map<string, Anchor | null>> {
    const live = contentHash(content);
    const out = new Map<string, Anchor | null>();
    const byBase = new Map<string, CommentRecord[]>();
    for (const c of comments) {
      if (!c.anchor || !c.anchorBase) continue;
      if (c.anchorBase === live) out.set(c.id, c.anchor);
      else byBase.set(c.anchorBase, [...(byBase.get(c.anchorBase) ?? []), c]);
    }
    const hashes = [...byBase.keys()];
    const stored = await Promise.all(hashes.map((h) => this.store.runs(shortId, h, live)));
    const deadline = performance.now() + REQUEST_DIFF_BUDGET_MS;
    for (const [i, hash] of hashes.entries()) {
      let runs = stored[i];
      if (!runs) {
        const base = await this.store.base(shortId, hash);
        if (base === undefined) continue;
        const granted = Math.min(DIFF_TIMEOUT_MS, Math.max(0, Math.floor(deadline - performance.now())));
        runs = runsBetween(base, content, granted);
        // Only a diff that had its full time is kept: a shorter one may have stopped for want of time.
        if (granted === DIFF_TIMEOUT_MS) await this.store.keepRuns(shortId, hash, live, runs);
      }
      for (const c of byBase.get(hash)!) out.set(c.id, followRuns(runs, c.anchor!));
    }
    return out;
  }
}

function checkedBody(body: string): string {
  if (isBlankBody(body)) throw invalid('body', 'must not be blank (only invisible characters)');
  if (!withinBodyLimit(body)) throw invalid('body', `must be at most ${MAX_COMMENT_BODY} characters`);
  return body;
}

const stateActor = (u: User): StateActor => ({ kind: 'user', userId: u.id, displayName: u.name });

/** HackMD's ApiCommentHead / ApiCommentListReply (listing) or ApiCommentDetailReply (one comment). */
export function presentComment({ comment: c, thread, currentAnchor }: ShownComment, detail = false) {
  const common = {
    id: c.id,
    threadId: c.threadId,
    actor: { kind: 'user' as const, userId: c.authorId, displayName: c.authorName },
    body: c.body,
    contentType: 'plain_text' as const,
    commentState: c.state,
    isPinned: false,
    anchor: c.anchor,
    currentAnchor,
    // Capped and marked on the way out too: a comment written before the cap may keep a longer
    // excerpt, one written before the mark a cut one without `…`.
    excerpt: c.excerpt === null ? null : excerptOf(c.excerpt, Boolean(c.excerptTruncated)).excerpt,
    reactions: [],
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
  if (c.isThreadHead)
    return { ...common, isThreadHead: true as const, replyCount: c.replyCount, threadState: thread };
  return detail
    ? { ...common, isThreadHead: false as const, threadState: thread }
    : { ...common, isThreadHead: false as const };
}
