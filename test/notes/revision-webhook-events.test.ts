// Version and comment webhook events end to end through the runner: naming versions, writing,
// resolving and reopening comments go through DynamoDB Local's stream (filtered by the template's
// FilterCriteria), the event router, the SQS stand-in and the delivery function to a receiver on
// 127.0.0.1. Signatures are verified with the `standardwebhooks` package.
import { Webhook } from 'standardwebhooks';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookEvent } from '../../lib/notes/webhooks/response-schemas.ts';
import { newUser } from '../support/identity.ts';
import { type Receiver, startReceiver } from '../support/receivers.ts';
import { call, createNote } from './helpers.ts';

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

describe('version and comment webhook events through the runner', { timeout: 120_000 }, () => {
  it('version.created, comment.created, comment.resolved and comment.reopened reach the receiver, signed', async () => {
    const me = await newUser('Reviser');
    const rx = await startReceiver();
    receivers.push(rx);
    const created = await call('POST', '/v1/webhooks', {
      token: me.token,
      body: { url: rx.url, scope: { type: 'workspace' } },
    });
    expect(created.status, created.text).toBe(201);
    const wh = new Webhook(created.body.secret);
    const ok = async (method: string, path: string, body?: unknown, status = 201) => {
      const res = await call(method, path, { token: me.token, body });
      expect(res.status, res.text).toBe(status);
      return res.body;
    };

    const note = await createNote(me.token, { content: '# Draft\nSome text to discuss.' });
    // A new named version (the first content was never recorded: an INSERT of a named version).
    const first = await ok('POST', `/v1/notes/${note.id}/versions`, { name: 'First draft' });
    // A content change records a system version (no event); naming it names it in place (same id).
    await ok('PATCH', `/v1/notes/${note.id}`, { content: '# Draft\nSome text to discuss, edited.' }, 200);
    const second = await ok('POST', `/v1/notes/${note.id}/versions`, { name: 'Second draft' });
    const head = await ok('POST', `/v1/notes/${note.id}/comments`, {
      body: 'Is this right?',
      anchor: { offset: 8, length: 4 },
    });
    const reply = await ok('POST', `/v1/notes/${note.id}/comments`, { body: 'Yes.', threadId: head.id });
    await ok('PUT', `/v1/notes/${note.id}/comments/${reply.id}/resolution`, undefined, 200);
    await ok('DELETE', `/v1/notes/${note.id}/comments/${head.id}/resolution`, undefined, 200);

    // note.created, note.updated, 2 × version.created, 2 × comment.created, resolved, reopened.
    await rx.waitFor(8);
    await new Promise((r) => setTimeout(r, 1500));
    const sent = rx.received.map((r) => wh.verify(r.body, r.headers as Record<string, string>) as any);
    for (const [i, r] of rx.received.entries()) expect(r.headers['webhook-id']).toBe(sent[i].id);
    // At least once: a delivery answered past its attempt's deadline (a busy machine) is sent again,
    // the same event under the same webhook-id, which is how a receiver tells it apart.
    const events = [...new Map(sent.map((e) => [e.id, e])).values()];
    for (const e of sent) expect(e).toEqual(events.find((x) => x.id === e.id));
    expect(events).toHaveLength(8);
    for (const e of events) {
      expect(v.parse(webhookEvent, e)).toEqual(e);
      expect(e.workspace).toEqual({ type: 'user', path: me.userPath });
      expect(e.data.note).toMatchObject({ id: note.id });
      expect(e.data.note).not.toHaveProperty('content');
    }
    const of = (type: string) => events.filter((e) => e.type === type);
    expect(events.map((e) => e.type).sort()).toEqual(
      [
        'comment.created',
        'comment.created',
        'comment.reopened',
        'comment.resolved',
        'note.created',
        'note.updated',
        'version.created',
        'version.created',
      ].sort(),
    );

    const versions = of('version.created').map((e) => e.data.version);
    expect(versions.map((v) => v.id).sort()).toEqual([first.id, second.id].sort());
    for (const v of versions) {
      expect(v).toMatchObject({ name_source: 'user', created_by: { user_id: me.id } });
      expect(v).not.toHaveProperty('content');
      const listed = await ok('GET', `/v1/notes/${note.id}/versions`, undefined, 200);
      expect(listed.data.find((x: { id: string }) => x.id === v.id)).toEqual(v);
    }

    const comments = of('comment.created').map((e) => e.data.comment);
    const inList = (await ok('GET', `/v1/notes/${note.id}/comments`, undefined, 200)).comments;
    expect(comments.find((c) => c.id === head.id)).toMatchObject({
      body: 'Is this right?',
      isThreadHead: true,
      anchor: { offset: 8, length: 4 },
      excerpt: 'Some',
      threadState: { status: 'open' },
    });
    expect(comments.find((c) => c.id === reply.id)).toMatchObject({ isThreadHead: false, threadId: head.id });
    for (const c of comments) expect(c).not.toHaveProperty('currentAnchor');
    expect(Object.keys(comments[0]).sort()).toEqual(
      Object.keys(inList.find((c: { id: string }) => c.id === comments[0].id))
        .filter((k) => k !== 'currentAnchor')
        .sort(),
    );

    const [resolved] = of('comment.resolved');
    expect(resolved.data.comment).toMatchObject({
      id: head.id,
      threadState: {
        status: 'hidden',
        reason: 'resolved',
        sourceCommentId: reply.id,
        actedBy: { userId: me.id },
      },
    });
    expect(resolved.createdAt).toBe(resolved.data.comment.threadState.actedAt);
    const [reopened] = of('comment.reopened');
    expect(reopened.data.comment).toMatchObject({ id: head.id, threadState: { status: 'open' } });

    const log = (await ok('GET', `/v1/webhooks/${created.body.id}/deliveries?limit=100`, undefined, 200))
      .data;
    expect(log.filter((d: { status: string }) => d.status === 'success').length).toBeGreaterThanOrEqual(8);
  });
});
