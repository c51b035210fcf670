// Note comments over HTTP: HackMD's ListNoteComments, GetNoteComment, ResolveNoteComment and
// UnresolveNoteComment, and our extension that writes them (POST, PATCH, DELETE); anchors followed
// through content edits; who may comment under each commentPermission; the trash keeps comments
// and versions, the purge removes them.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { notesKeys, revisionKeys } from '../../lib/data/keys.ts';
import { MAX_EXCERPT_CHARS } from '../../lib/notes/revisions/anchors.ts';
import { MAX_COMMENT_BODY } from '../../lib/notes/revisions/comments.ts';
import { MAX_CONTENT_BYTES } from '../../lib/notes/kernel/model.ts';
import type { NoteRecord } from '../../lib/notes/kernel/model.ts';
import { DAY_MS } from '../../lib/notes/trash/trash.ts';
import { trashPurger } from '../../lib/notes/trash/wiring.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { call, createNote, expectBudget } from './helpers.ts';

const comment = (token: string, noteId: string, body: unknown) =>
  call('POST', `/v1/notes/${noteId}/comments`, { token, body });
const listed = (token: string, noteId: string, query = '') =>
  call('GET', `/v1/notes/${noteId}/comments${query}`, { token });
const edit = (token: string, id: string, content: string) =>
  call('PATCH', `/v1/notes/${id}`, { token, body: { content } });
const items = async (pk: string) =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk },
      }),
    )
  ).Items ?? [];

describe('note comments', () => {
  it('writes threads and replies, and lists, pages and filters them in HackMD shapes', async () => {
    const owner = await newUser('Commenter');
    const reader = await newUser('Replier');
    const n = await createNote(owner.token, {
      content: 'The total is 42 widgets.',
      readPermission: 'signed_in',
    });
    const head = await comment(owner.token, n.id, {
      body: 'Is this right?',
      anchor: { offset: 13, length: 10 },
    });
    expect(head.status).toBe(201);
    expectBudget(head, 5);
    expect(head.body).toMatchObject({
      threadId: head.body.id,
      actor: { kind: 'user', userId: owner.id, displayName: 'Commenter' },
      body: 'Is this right?',
      contentType: 'plain_text',
      commentState: { status: 'open', reason: null, actedBy: null, actedAt: null },
      isPinned: false,
      anchor: { offset: 13, length: 10 },
      currentAnchor: { offset: 13, length: 10 },
      excerpt: '42 widgets',
      reactions: [],
      isThreadHead: true,
      replyCount: 0,
      threadState: { status: 'open', sourceCommentId: head.body.id },
    });
    const reply = await comment(reader.token, n.shortId, { body: 'Yes, checked.', threadId: head.body.id });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      threadId: head.body.id,
      isThreadHead: false,
      anchor: null,
      excerpt: null,
    });
    const other = await comment(reader.token, n.id, { body: 'A second thread' });

    const all = await listed(owner.token, n.id);
    expect(all.status).toBe(200);
    expectBudget(all, 3);
    expect(all.body.pagination).toEqual({ page: 1, limit: 50, hasNext: false });
    expect(all.body.comments.map((c: { id: string }) => c.id)).toEqual([
      head.body.id,
      reply.body.id,
      other.body.id,
    ]);
    expect(all.body.comments[0].replyCount).toBe(1);
    expect(all.body.comments[1]).not.toHaveProperty('threadState'); // ApiCommentListReply
    const desc = await listed(owner.token, n.id, '?sort=desc&limit=2');
    expect(desc.body.comments.map((c: { id: string }) => c.id)).toEqual([other.body.id, reply.body.id]);
    expect(desc.body.pagination).toEqual({ page: 1, limit: 2, hasNext: true });
    expect((await listed(owner.token, n.id, '?sort=desc&limit=2&page=2')).body.comments[0].id).toBe(
      head.body.id,
    );
    expect((await listed(owner.token, n.id, `?threadId=${head.body.id}`)).body.comments).toHaveLength(2);
    expect((await listed(owner.token, n.id, '?isThreadHead=true')).body.comments).toHaveLength(2);

    const one = await call('GET', `/v1/notes/${n.id}/comments/${reply.body.id}`, { token: reader.token });
    expect(one.status).toBe(200);
    expectBudget(one, 4);
    expect(one.body).toMatchObject({
      id: reply.body.id,
      isThreadHead: false,
      threadState: { status: 'open' },
    });
  });

  it('follows the anchored text through later edits, and gives null once it is gone', async () => {
    const me = await newUser('Anchorer');
    const n = await createNote(me.token, { content: 'Hello brave new world' });
    const c = (await comment(me.token, n.id, { body: 'word choice', anchor: { offset: 6, length: 5 } })).body;
    const current = async () =>
      (await call('GET', `/v1/notes/${n.id}/comments/${c.id}`, { token: me.token })).body;
    await edit(me.token, n.id, 'Oh! Hello brave new world');
    expect((await current()).currentAnchor).toEqual({ offset: 10, length: 5 });
    await edit(me.token, n.id, 'Oh! Hello brave new world, and more text\nbrave again');
    expect((await current()).currentAnchor).toEqual({ offset: 10, length: 5 });
    // Inside the anchored text: it spans what survived, with the insertion.
    await edit(me.token, n.id, 'Oh! Hello bra-a-ave new world, and more text\nbrave again');
    const inside = await current();
    expect(inside.currentAnchor).toEqual({ offset: 10, length: 9 });
    expect(inside.excerpt).toBe('brave');
    // Every anchored character deleted: null (the other "brave" is another text).
    await edit(me.token, n.id, 'Oh! Hello new world, and more text\nbrave again');
    const gone = await current();
    expect(gone.currentAnchor).toBeNull();
    expect(gone.anchor).toEqual({ offset: 6, length: 5 });
    // The listing maps anchors the same way.
    expect((await listed(me.token, n.id)).body.comments[0].currentAnchor).toBeNull();
  });

  it('keeps an excerpt of at most 1000 characters, says when it is cut, and never splits a character', async () => {
    const me = await newUser('Excerpter');
    const big = `${'😀 smile '.repeat(40_000)}`.slice(0, MAX_CONTENT_BYTES / 2);
    const n = await createNote(me.token, { content: big });
    const whole = await comment(me.token, n.id, {
      body: 'All of it',
      anchor: { offset: 0, length: big.length },
    });
    expect(whole.status).toBe(201);
    expect(whole.body).toMatchObject({ anchor: { offset: 0, length: big.length } });
    // Cut short: its first 999 characters and `…` (HackMD's closed shapes have no field to say so).
    expect(whole.body).not.toHaveProperty('excerptTruncated');
    expect([...whole.body.excerpt]).toHaveLength(MAX_EXCERPT_CHARS);
    expect(whole.body.excerpt.endsWith('…')).toBe(true);
    expect(big.startsWith(whole.body.excerpt.slice(0, -1))).toBe(true);
    // The comment as listed (and as a comment event carries it) stays small whatever it anchors.
    expect((await listed(me.token, n.id)).text.length).toBeLessThan(10_000);

    // Offsets 1..2 of "😀 smile" cut the emoji's surrogate pair in half: widened to the whole emoji.
    const split = await comment(me.token, n.id, { body: 'Half', anchor: { offset: 1, length: 2 } });
    expect(split.status).toBe(201);
    expect(split.body).toMatchObject({
      anchor: { offset: 0, length: 3 },
      excerpt: '😀 ',
    });
    expect(split.body.excerpt).not.toMatch(/\p{Cs}/u);
  });

  it('resolves and reopens a thread: 200 with cascade, 409 when it is already so', async () => {
    const owner = await newUser('Resolver');
    const n = await createNote(owner.token, { content: 'text' });
    const head = (await comment(owner.token, n.id, { body: 'thread' })).body;
    const reply = (await comment(owner.token, n.id, { body: 'reply', threadId: head.id })).body;
    const resolution = (id: string, method: 'PUT' | 'DELETE') =>
      call(method, `/v1/notes/${n.id}/comments/${id}/resolution`, { token: owner.token });

    const resolved = await resolution(head.id, 'PUT');
    expect(resolved.status).toBe(200);
    expectBudget(resolved, 5);
    expect(resolved.body.cascade).toEqual({ threadId: head.id });
    expect(resolved.body.comment).toMatchObject({
      id: head.id,
      commentState: { status: 'hidden', reason: 'resolved', actedBy: { kind: 'user', userId: owner.id } },
      threadState: { status: 'hidden', reason: 'resolved', sourceCommentId: head.id },
    });
    const again = await resolution(reply.id, 'PUT');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 40900, errorCode: 'comment_already_resolved' });
    expect((await listed(owner.token, n.id, '?threadStatus=hidden')).body.comments).toHaveLength(2);
    expect((await listed(owner.token, n.id, '?commentStatus=hidden')).body.comments).toHaveLength(1);

    const reopened = await resolution(reply.id, 'DELETE');
    expect(reopened.status).toBe(200);
    expect(reopened.body.comment.threadState).toMatchObject({ status: 'open', sourceCommentId: reply.id });
    expect((await resolution(head.id, 'DELETE')).body).toMatchObject({ errorCode: 'comment_not_resolved' });
    expect((await listed(owner.token, n.id, '?commentStatus=hidden')).body.comments).toHaveLength(0);
    // Resolving from a reply resolves its thread too.
    const viaReply = await resolution(reply.id, 'PUT');
    expect(viaReply.body.comment).toMatchObject({
      id: reply.id,
      isThreadHead: false,
      threadState: { status: 'hidden' },
    });
  });

  it("edits and deletes one's own comments only; a thread head goes with its replies", async () => {
    const a = await newUser('Author A');
    const b = await newUser('Author B');
    const n = await createNote(a.token, { content: 'x', readPermission: 'signed_in' });
    const head = (await comment(a.token, n.id, { body: 'head' })).body;
    const reply = (await comment(b.token, n.id, { body: 'reply', threadId: head.id })).body;
    const patched = await call('PATCH', `/v1/notes/${n.id}/comments/${reply.id}`, {
      token: b.token,
      body: { body: 'edited' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ body: 'edited', id: reply.id });
    expect(patched.body.updatedAt).toBeGreaterThanOrEqual(reply.updatedAt);
    expect(
      (
        await call('PATCH', `/v1/notes/${n.id}/comments/${reply.id}`, {
          token: a.token,
          body: { body: 'hijack' },
        })
      ).status,
    ).toBe(403);
    expect((await call('DELETE', `/v1/notes/${n.id}/comments/${reply.id}`, { token: a.token })).status).toBe(
      403,
    );
    const second = (await comment(b.token, n.id, { body: 'reply 2', threadId: head.id })).body;
    expect((await call('DELETE', `/v1/notes/${n.id}/comments/${second.id}`, { token: b.token })).status).toBe(
      204,
    );
    expect(
      (await call('GET', `/v1/notes/${n.id}/comments/${head.id}`, { token: a.token })).body.replyCount,
    ).toBe(1);
    expect((await call('DELETE', `/v1/notes/${n.id}/comments/${head.id}`, { token: a.token })).status).toBe(
      204,
    );
    expect((await listed(a.token, n.id)).body.comments).toEqual([]);
    expect((await call('GET', `/v1/notes/${n.id}/comments/${reply.id}`, { token: a.token })).status).toBe(
      404,
    );
  });

  it('who may comment and resolve follows commentPermission', async () => {
    const owner = await newUser('Perm Owner');
    const reader = await newUser('Perm Reader');
    const stranger = await newUser('Perm Stranger');
    const note = (commentPermission: string) =>
      createNote(owner.token, { content: 'c', readPermission: 'signed_in', commentPermission });
    const status = async (token: string, id: string) => (await comment(token, id, { body: 'hi' })).status;

    const disabled = await note('disabled');
    expect((await listed(owner.token, disabled.id)).status).toBe(403);
    expect(await status(owner.token, disabled.id)).toBe(403);

    const forbidden = await note('forbidden');
    expect((await listed(reader.token, forbidden.id)).status).toBe(200);
    expect(await status(owner.token, forbidden.id)).toBe(403);
    expect(await status(reader.token, forbidden.id)).toBe(403);

    const owners = await note('owners');
    expect(await status(reader.token, owners.id)).toBe(403);
    const ownersHead = (await comment(owner.token, owners.id, { body: 'mine' })).body;
    expect(ownersHead.id).toBeDefined();
    const put = (token: string, id: string, c: string) =>
      call('PUT', `/v1/notes/${id}/comments/${c}/resolution`, { token });
    expect((await put(reader.token, owners.id, ownersHead.id)).status).toBe(403);
    expect((await put(owner.token, owners.id, ownersHead.id)).status).toBe(200);

    for (const open of ['signed_in_users', 'everyone']) {
      const n = await note(open);
      expect(await status(reader.token, n.id), open).toBe(201);
      const head = (await listed(reader.token, n.id)).body.comments[0];
      expect((await put(reader.token, n.id, head.id)).status, open).toBe(200);
    }
    const secret = await createNote(owner.token, { content: 's' });
    expect(await status(stranger.token, secret.id)).toBe(404);
    expect((await listed(stranger.token, secret.id)).status).toBe(404);

    // Team notes: members are the note's owners.
    const member = await newUser('Perm Member');
    const team = await newTeam(owner, [member]);
    const teamNote = await createNote(owner.token, { content: 't', commentPermission: 'owners' }, team.path);
    expect(await status(member.token, teamNote.id)).toBe(201);
    expect(await status(stranger.token, teamNote.id)).toBe(404);
  });

  it('answers each invalid request with a clear 4xx', async () => {
    const me = await newUser('Comment Validator');
    const n = await createNote(me.token, { content: 'short' });
    for (const body of [
      {},
      { body: '' },
      { body: '   ' },
      { body: 'x'.repeat(MAX_COMMENT_BODY + 1) },
      { body: 'x', anchor: { offset: 0, length: 0 } },
      { body: 'x', anchor: { offset: 3, length: 3 } },
      { body: 'x', anchor: { offset: -1, length: 1 } },
      { body: 'x', threadId: 'not-a-uuid' },
      { body: 'x', threadId: '01938a70-1c20-7d4e-8a6b-5c7d9e0f1a22' },
      { body: 1, extra: true },
    ]) {
      const res = await comment(me.token, n.id, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
    }
    expect((await comment(me.token, n.id, { body: 'x'.repeat(MAX_COMMENT_BODY) })).status).toBe(201);
    const head = (await listed(me.token, n.id)).body.comments[0];
    expect(
      (await comment(me.token, n.id, { body: 'x', threadId: head.id, anchor: { offset: 0, length: 1 } }))
        .status,
    ).toBe(422);
    const unknown = '01938a70-1c20-7d4e-8a6b-5c7d9e0f1a22';
    expect((await call('GET', `/v1/notes/${n.id}/comments/${unknown}`, { token: me.token })).status).toBe(
      404,
    );
    expect((await call('GET', `/v1/notes/${n.id}/comments/nope`, { token: me.token })).status).toBe(400);
    expect(
      (await call('PUT', `/v1/notes/${n.id}/comments/${unknown}/resolution`, { token: me.token })).status,
    ).toBe(404);
    expect((await call('DELETE', `/v1/notes/${n.id}/comments/${unknown}`, { token: me.token })).status).toBe(
      404,
    );
    for (const q of [
      '?limit=0',
      '?limit=101',
      '?page=0',
      '?sort=up',
      '?isThreadHead=false',
      '?commentStatus=closed',
    ]) {
      expect((await listed(me.token, n.id, q)).status, q).toBe(400);
    }
  });

  it('a body of only invisible characters is 422 naming body; the limit counts code points, not UTF-16 units', async () => {
    const me = await newUser('Invisible Commenter');
    const n = await createNote(me.token, { content: 'short' });
    const blank = [
      '\u200b', // zero-width space
      '\u200c\u200d', // zero-width non-joiner and joiner
      '\ufeff', // byte-order mark
      '\u2060\u00ad', // word joiner, soft hyphen
      '\u200e\u202e', // bidirectional marks
      ' \t\n\u3000\u00a0', // white space, ideographic and no-break too
      '\u3164\u115f', // Hangul fillers (default-ignorable)
      '\u034f\ufe0f', // combining grapheme joiner, a variation selector
      '\u2800', // blank Braille pattern
    ];
    for (const body of blank) {
      const res = await comment(me.token, n.id, { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors, JSON.stringify(body)).toEqual([
        { field: 'body', message: 'must not be blank (only invisible characters)' },
      ]);
    }
    // 4,096 emoji: 8,192 UTF-16 units, 4,096 characters (code points): accepted; one more is not.
    const emoji = '\u{1f600}'.repeat(MAX_COMMENT_BODY);
    const made = await comment(me.token, n.id, { body: emoji });
    expect(made.status, made.text).toBe(201);
    expect(made.body.body).toBe(emoji);
    const over = await comment(me.token, n.id, { body: `${emoji}x` });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual([
      { field: 'body', message: `must be at most ${MAX_COMMENT_BODY} characters` },
    ]);
    // Visible text with invisible characters around it is kept as sent; edits follow the same rules.
    const kept = await comment(me.token, n.id, { body: '\u200bok\u200d' });
    expect(kept.body.body).toBe('\u200bok\u200d');
    const path = `/v1/notes/${n.id}/comments/${kept.body.id}`;
    const blanked = await call('PATCH', path, { token: me.token, body: { body: '\u200b\ufeff' } });
    expect(blanked.status).toBe(422);
    expect(blanked.body.errors.map((e: { field: string }) => e.field)).toEqual(['body']);
    expect((await call('PATCH', path, { token: me.token, body: { body: emoji } })).status).toBe(200);
  });

  it('a trashed note keeps its versions and comments, restore brings them back, the purge removes them', async () => {
    const me = await newUser('Trash Keeper');
    const n = await createNote(me.token, { content: 'v0' });
    await edit(me.token, n.id, 'v1 with text');
    const c = (await comment(me.token, n.id, { body: 'kept', anchor: { offset: 0, length: 2 } })).body;
    const v = (await call('POST', `/v1/notes/${n.id}/versions`, { token: me.token, body: { name: 'kept' } }))
      .body;
    expect((await call('DELETE', `/v1/notes/${n.id}`, { token: me.token })).status).toBe(204);
    expect((await listed(me.token, n.id)).status).toBe(404);
    expect((await call('GET', `/v1/notes/${n.id}/versions`, { token: me.token })).status).toBe(404);
    expect((await comment(me.token, n.id, { body: 'x' })).status).toBe(404);
    expect((await call('PUT', `/v1/trash/${n.id}/restore`, { token: me.token })).status).toBe(204);
    expect((await listed(me.token, n.id)).body.comments.map((x: { id: string }) => x.id)).toEqual([c.id]);
    expect((await call('GET', `/v1/notes/${n.id}/versions/${v.id}`, { token: me.token })).body.content).toBe(
      'v1 with text',
    );

    await call('DELETE', `/v1/notes/${n.id}`, { token: me.token });
    const meta = (
      await documentClient().send(
        new GetCommand({ TableName: config.tableName, Key: notesKeys.noteMeta(n.shortId) }),
      )
    ).Item as NoteRecord;
    expect(await items(revisionKeys.versionsPartition(n.shortId))).not.toEqual([]);
    expect(await trashPurger().purge(meta, Date.now() + config.trashRetentionDays * DAY_MS + 1000)).toBe(
      true,
    );
    expect(await items(notesKeys.notePartition(n.shortId))).toEqual([]);
    expect(await items(revisionKeys.versionsPartition(n.shortId))).toEqual([]);
    expect(await items(revisionKeys.commentsPartition(n.shortId))).toEqual([]);
  });
});
