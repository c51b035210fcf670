// Caps that hold under concurrency because they are in the write's condition, not in a read before
// it: replies per thread (99) and named versions per note (50). Data up to the cap is written through
// the same service and store the functions use; the racing writes go over HTTP (or to the store).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflict } from '../../lib/domain/errors.ts';
import { createVersion } from '../../lib/notes/revisions/adapters/dynamo-versions.ts';
import { MAX_REPLIES } from '../../lib/notes/revisions/comments.ts';
import { MAX_NAMED_VERSIONS, timeOrderedId, type VersionRecord } from '../../lib/notes/revisions/versions.ts';
import { commentCreator } from '../../lib/notes/revisions/wiring.ts';
import { newUser } from '../support/identity.ts';
import { call, createNote } from './helpers.ts';

const named = (i: number): VersionRecord => {
  const now = Date.now() + i;
  return {
    id: timeOrderedId(now, randomBytes(10)),
    name: `v${i}`,
    nameSource: 'user',
    description: null,
    createdAt: now,
    updatedAt: now,
    createdBy: null,
    authorship: [],
    contentHash: `h${i}`,
    bytes: 2,
    expiresAt: null,
  };
};

describe('caps under concurrency', () => {
  it(`20 concurrent replies to a thread of 90: exactly 9 succeed, the rest 422; the head then deletes`, async () => {
    const me = await newUser('Replier');
    const n = await createNote(me.token, { content: 'x' });
    const head = await call('POST', `/v1/notes/${n.id}/comments`, {
      token: me.token,
      body: { body: 'head' },
    });
    expect(head.status).toBe(201);
    for (let i = 0; i < 90; i += 1)
      await commentCreator().create(me.id, n.shortId, { body: `r${i}`, threadId: head.body.id });
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', `/v1/notes/${n.id}/comments`, {
          token: me.token,
          body: { body: `racing ${i}`, threadId: head.body.id },
        }),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_REPLIES - 90);
    for (const r of replies.filter((r) => r.status !== 201)) {
      expect(r.status, r.text).toBe(422);
      expect(r.body.errors).toEqual([
        { field: 'threadId', message: `has ${MAX_REPLIES} replies, the most a thread takes` },
      ]);
    }
    const thread = await call('GET', `/v1/notes/${n.id}/comments/${head.body.id}`, { token: me.token });
    expect(thread.body.replyCount).toBe(MAX_REPLIES);
    const listed = await call('GET', `/v1/notes/${n.id}/comments?limit=100`, { token: me.token });
    expect(listed.body.comments).toHaveLength(MAX_REPLIES + 1);
    // The head and its 99 replies: one transaction of 100 items, DynamoDB's limit.
    const removed = await call('DELETE', `/v1/notes/${n.id}/comments/${head.body.id}`, { token: me.token });
    expect(removed.status, removed.text).toBe(204);
    expect((await call('GET', `/v1/notes/${n.id}/comments`, { token: me.token })).body.comments).toEqual([]);
  });

  it(`named versions stop at ${MAX_NAMED_VERSIONS}, racing or not: 409 version_limit_reached`, async () => {
    const me = await newUser('Namer');
    const n = await createNote(me.token, { content: 'x' });
    for (let i = 0; i < MAX_NAMED_VERSIONS - 5; i += 1) await createVersion(n.shortId, named(i), `v${i}`);
    const racing = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => createVersion(n.shortId, named(100 + i), `r${i}`)),
    );
    expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of racing)
      if (r.status === 'rejected')
        expect(r.reason).toEqual(expect.objectContaining({ reason: 'named_versions' }));
    expect(racing.every((r) => r.status === 'fulfilled' || r.reason instanceof Conflict)).toBe(true);

    const over = await call('POST', `/v1/notes/${n.id}/versions`, {
      token: me.token,
      body: { name: 'one more' },
    });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      error_code: 'version_limit_reached',
      max_named_versions: MAX_NAMED_VERSIONS,
    });
    const listed = await call('GET', `/v1/notes/${n.id}/versions?named_only=true&limit=100`, {
      token: me.token,
    });
    expect(listed.body.meta.total).toBe(MAX_NAMED_VERSIONS);
  });
});
