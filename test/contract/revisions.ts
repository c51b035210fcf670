// The contract of the versions and comments stores: the in-memory and DynamoDB adapters pass this
// same suite (revisions.memory.test.ts, revisions.dynamo.test.ts).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflict, NotFound } from '../../lib/domain/errors.ts';
import type { Runs } from '../../lib/notes/revisions/anchors.ts';
import type { CommentRecord, CommentStore } from '../../lib/notes/revisions/comments.ts';
import {
  kept,
  timeOrderedId,
  type VersionRecord,
  type VersionStore,
} from '../../lib/notes/revisions/versions.ts';

const shortId = () => randomBytes(8).toString('base64url').slice(0, 10);
const NOW = 1_800_000_000_000;
const user = { user_id: 'u1', display_name: 'U', photo: '' };

const version = (at: number, over: Partial<VersionRecord> = {}): VersionRecord => ({
  id: timeOrderedId(at, randomBytes(10)),
  name: null,
  nameSource: 'system',
  description: null,
  createdAt: at,
  updatedAt: at,
  createdBy: null,
  authorship: [user],
  contentHash: `h${at}`,
  bytes: 1,
  expiresAt: at + 1000,
  ...over,
});

/**
 * `note`: puts a note at a version, for a store that checks the note when it keeps a shared version's
 * content (DynamoDB); the in-memory store does not see notes.
 */
export function versionsContract(
  name: string,
  store: () => VersionStore,
  note?: { at(shortId: string, version: number): Promise<void> },
): void {
  describe(`versions store (${name})`, () => {
    it('keeps content, lists newest first, and hides expired system versions', async () => {
      const s = store();
      const note = shortId();
      const old = version(NOW - 5000, { expiresAt: NOW - 1 });
      const named = version(NOW - 3000, { nameSource: 'user', name: 'n', expiresAt: null });
      const fresh = version(NOW - 1000, { expiresAt: NOW + 1000 });
      for (const v of [old, named, fresh]) await s.create(note, v, `content of ${v.id}`);
      expect((await s.list(note, NOW)).map((v) => v.id)).toEqual([fresh.id, named.id]);
      expect((await s.latest(note, NOW))?.id).toBe(fresh.id);
      expect(await s.get(note, old.id, NOW)).toBeUndefined();
      expect(await s.get(note, named.id, NOW)).toEqual(named);
      expect(await s.content(note, fresh.id)).toBe(`content of ${fresh.id}`);
      // When the newest has expired, the newest unexpired one is the latest.
      expect((await s.latest(note, NOW + 5000))?.id).toBe(named.id);
      await expect(s.create(note, fresh, 'again')).rejects.toBeInstanceOf(Conflict);
    });

    it('coalesces only into an unchanged system version, and names it in place once', async () => {
      const s = store();
      const note = shortId();
      const v = version(NOW);
      await s.create(note, v, 'one');
      const next = {
        ...v,
        updatedAt: NOW + 1,
        contentHash: 'h2',
        authorship: [user, { ...user, user_id: 'u2' }],
      };
      expect(await s.coalesce(note, v, next)).toBe(true);
      expect(await s.coalesce(note, v, { ...next, updatedAt: NOW + 2 })).toBe(false);
      // Coalesced into, it shares the note's content (its metadata alone is written).
      expect(await s.get(note, v.id, NOW)).toEqual({ ...next, shared: true });
      const own = version(NOW + 5);
      await s.create(note, own, 'kept');
      const named = { ...own, name: 'N', nameSource: 'user' as const, createdBy: user, expiresAt: null };
      expect(await s.name(note, named)).toBe(true);
      expect(await s.name(note, named)).toBe(false);
      expect(await s.coalesce(note, own, { ...own, updatedAt: NOW + 6 })).toBe(false);
      expect(await s.content(note, own.id)).toBe('kept');
      // Named: kept past the system retention.
      expect((await s.get(note, own.id, NOW + 10_000))?.name).toBe('N');
      await s.rename(note, { ...named, name: 'M', description: 'd' });
      expect(await s.get(note, own.id, NOW)).toMatchObject({
        name: 'M',
        description: 'd',
        nameSource: 'user',
      });
      const system = version(NOW + 10);
      await s.create(note, system, 's');
      await expect(s.rename(note, { ...system, name: 'x' })).rejects.toBeInstanceOf(Conflict);
    });

    it('creates a shared version without content, kept only when the note is where it was read', async () => {
      const s = store();
      const id = shortId();
      const v = version(NOW, { shared: true });
      await s.create(id, v);
      expect(await s.latest(id, NOW)).toEqual(v);
      await expect(s.create(id, v)).rejects.toBeInstanceOf(Conflict);
      await note?.at(id, 3);
      // The version changed since read: not kept.
      expect(await s.materialize(id, { ...v, updatedAt: NOW - 1 }, { content: 'x', noteVersion: 3 })).toBe(
        false,
      );
      // The note is no longer at the version whose content was read: not kept.
      if (note) expect(await s.materialize(id, v, { content: 'x', noteVersion: 2 })).toBe(false);
      expect(await s.materialize(id, v, { content: 'kept', noteVersion: 3 })).toBe(true);
      expect(await s.get(id, v.id, NOW)).toEqual(kept(v, 'kept'));
      expect(await s.content(id, v.id)).toBe('kept');
      // Kept, it is shared no more: once only.
      expect(await s.materialize(id, v, { content: 'again', noteVersion: 3 })).toBe(false);
      expect(await s.content(id, v.id)).toBe('kept');
    });

    it('stores the largest content (300 KiB that barely compresses)', async () => {
      const s = store();
      const note = shortId();
      const big = randomBytes(230 * 1024)
        .toString('base64')
        .slice(0, 300 * 1024);
      const v = version(NOW, { bytes: big.length });
      await s.create(note, v, big);
      expect(await s.content(note, v.id)).toBe(big);
    });
  });
}

const comment = (at: number, over: Partial<CommentRecord> = {}): CommentRecord => {
  const id = timeOrderedId(at, randomBytes(10));
  return {
    id,
    threadId: id,
    authorId: 'u1',
    authorName: 'U',
    body: 'b',
    state: { status: 'open', reason: null, actedBy: null, actedAt: null },
    anchor: null,
    anchorBase: null,
    excerpt: null,
    createdAt: at,
    updatedAt: at,
    isThreadHead: true,
    replyCount: 0,
    threadState: { status: 'open', reason: null, actedBy: null, actedAt: null, sourceCommentId: id },
    rev: 1,
    ...over,
  };
};

export function commentsContract(name: string, store: () => CommentStore): void {
  describe(`comments store (${name})`, () => {
    it('writes threads and replies (counted into the head), oldest first, with anchor bases', async () => {
      const s = store();
      const note = shortId();
      const head = comment(NOW, { anchor: { offset: 0, length: 1 }, anchorBase: 'h' });
      await s.create(note, head, { hash: 'h', content: 'the base' });
      const reply = comment(NOW + 1, { threadId: head.id, isThreadHead: false, threadState: null });
      await s.create(note, reply);
      expect((await s.list(note)).map((c) => c.id)).toEqual([head.id, reply.id]);
      expect(await s.get(note, head.id)).toMatchObject({ replyCount: 1, rev: 2 });
      expect(await s.base(note, 'h')).toBe('the base');
      expect(await s.base(note, 'other')).toBeUndefined();
      const orphan = comment(NOW + 2, { threadId: comment(NOW).id, isThreadHead: false, threadState: null });
      await expect(s.create(note, orphan)).rejects.toBeInstanceOf(NotFound);
    });

    it('keeps the runs from one content to another per pair, as they were given', async () => {
      const s = store();
      const note = shortId();
      const runs: Runs = [
        [0, 5, 0],
        [9, 20, 12],
        [25, 25, 30],
      ];
      expect(await s.runs(note, 'a', 'b')).toBeUndefined();
      await s.keepRuns(note, 'a', 'b', runs);
      expect(await s.runs(note, 'a', 'b')).toEqual(runs);
      expect(await s.runs(note, 'a', 'c')).toBeUndefined();
      expect(await s.runs(note, 'b', 'a')).toBeUndefined();
    });

    it('saves and removes only what is unchanged since read', async () => {
      const s = store();
      const note = shortId();
      const head = comment(NOW);
      await s.create(note, head);
      expect(await s.save(note, [{ ...head, body: 'new', rev: 2 }])).toBe(true);
      expect(await s.save(note, [{ ...head, body: 'stale', rev: 2 }])).toBe(false);
      expect((await s.get(note, head.id))?.body).toBe('new');
      expect(await s.remove(note, [head])).toBe(false);
      const reply = comment(NOW + 1, { threadId: head.id, isThreadHead: false, threadState: null });
      await s.create(note, reply);
      const fresh = (await s.get(note, head.id))!;
      expect(await s.remove(note, [reply], fresh)).toBe(true);
      expect(await s.get(note, head.id)).toMatchObject({ replyCount: 0 });
      expect(await s.remove(note, [(await s.get(note, head.id))!])).toBe(true);
      expect(await s.list(note)).toEqual([]);
    });
  });
}
