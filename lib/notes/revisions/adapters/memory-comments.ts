// In-memory comments store for domain unit tests; the same conditions as dynamo-comments.ts
// (test/contract/revisions.ts runs both).
import { Conflict, NotFound } from '../../../domain/errors.ts';
import type { Runs } from '../anchors.ts';
import { type CommentRecord, type CommentStore, MAX_REPLIES } from '../comments.ts';

export const memoryCommentStore = (): CommentStore => {
  const comments = new Map<string, Map<string, CommentRecord>>();
  const bases = new Map<string, string>();
  const runs = new Map<string, Runs>();
  const of = (shortId: string) => {
    if (!comments.has(shortId)) comments.set(shortId, new Map());
    return comments.get(shortId)!;
  };
  const copy = (c: CommentRecord): CommentRecord => structuredClone(c);
  return {
    async list(shortId) {
      return [...of(shortId).values()].sort((a, b) => (a.id < b.id ? -1 : 1)).map(copy);
    },
    async get(shortId, id) {
      const c = of(shortId).get(id);
      return c && copy(c);
    },
    async create(shortId, c, base) {
      const m = of(shortId);
      const head = c.isThreadHead ? undefined : m.get(c.threadId);
      if (m.has(c.id) || (!c.isThreadHead && !head)) throw new NotFound('The thread is gone');
      if (head && head.replyCount >= MAX_REPLIES)
        throw new Conflict('The thread has its most replies', { reason: 'replies' });
      if (head) Object.assign(head, { replyCount: head.replyCount + 1, rev: head.rev + 1 });
      m.set(c.id, copy(c));
      if (base) bases.set(`${shortId}/${base.hash}`, base.content);
    },
    async save(shortId, changed) {
      const m = of(shortId);
      if (changed.some((c) => m.get(c.id)?.rev !== c.rev - 1)) return false;
      for (const c of changed) m.set(c.id, copy(c));
      return true;
    },
    async remove(shortId, removed, head) {
      const m = of(shortId);
      if (removed.some((c) => m.get(c.id)?.rev !== c.rev) || (head && !m.has(head.id))) return false;
      for (const c of removed) m.delete(c.id);
      if (head) {
        const h = m.get(head.id)!;
        Object.assign(h, { replyCount: h.replyCount - 1, rev: h.rev + 1 });
      }
      return true;
    },
    async base(shortId, hash) {
      return bases.get(`${shortId}/${hash}`);
    },
    async runs(shortId, baseHash, liveHash) {
      return structuredClone(runs.get(`${shortId}/${baseHash}/${liveHash}`));
    },
    async keepRuns(shortId, baseHash, liveHash, r) {
      runs.set(`${shortId}/${baseHash}/${liveHash}`, structuredClone(r));
    },
  };
};
