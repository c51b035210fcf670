// The trash over HTTP: DeleteNote answers 204 and the note is then 404 everywhere, listed in the
// trash, restorable (content, images, history, folder) until its retention ends; then it is purged
// for good, images included, by the TTL stream function (deployed) or the sweep (locally).
import { marshall } from '@aws-sdk/util-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler as purgeFromStream } from '../../functions/notes/purge-trashed-notes.ts';
import { config } from '../../lib/config.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { notesKeys, trashKeys } from '../../lib/data/keys.ts';
import { DynamoTrashStore, STRIP_BOUND_MS } from '../../lib/notes/trash/adapters/dynamo-trash.ts';
import { DAY_MS } from '../../lib/notes/trash/trash.ts';
import { trashSweeper } from '../../lib/notes/trash/wiring.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { call, createNote, expectBudget, multipart, PNG } from './helpers.ts';

const upload = async (token: string, noteId: string): Promise<string> => {
  const form = multipart([{ name: 'image', filename: 'a.png', type: 'image/png', data: PNG }]);
  return (await call('POST', `/v1/notes/${noteId}/images`, { token, raw: form.raw, headers: form.headers }))
    .body.data.link;
};
const ids = (res: { body: { id: string }[] }) => res.body.map((n) => n.id);
const partition = async (shortId: string) =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': notesKeys.notePartition(shortId) },
      }),
    )
  ).Items ?? [];

describe('trash', () => {
  it("a deleted note is 404 everywhere and listed in the trash with HackMD's ApiTrashNote", async () => {
    const me = await newUser('Trash Owner');
    const folder = (await call('POST', '/v1/folders', { token: me.token, body: { name: 'F' } })).body;
    const n = await createNote(me.token, { content: '# Doomed', tags: ['x'], parentFolderId: folder.id });
    const del = await call('DELETE', `/v1/notes/${n.id}`, { token: me.token });
    expect(del.status).toBe(204);
    for (const [method, path] of [
      ['GET', `/v1/notes/${n.id}`],
      ['PATCH', `/v1/notes/${n.shortId}`],
      ['DELETE', `/v1/notes/${n.id}`],
    ]) {
      expect(
        (await call(method, path, { token: me.token, body: method === 'PATCH' ? { title: 't' } : undefined }))
          .status,
      ).toBe(404);
    }
    const form = multipart([{ name: 'image', filename: 'a.png', type: 'image/png', data: PNG }]);
    expect(
      (
        await call('POST', `/v1/notes/${n.id}/images`, {
          token: me.token,
          raw: form.raw,
          headers: form.headers,
        })
      ).status,
    ).toBe(404);
    expect(ids(await call('GET', '/v1/notes', { token: me.token }))).toEqual([]);
    expect(ids(await call('GET', `/v1/notes?folderId=${folder.id}`, { token: me.token }))).toEqual([]);
    expect(ids(await call('GET', '/v1/history', { token: me.token }))).toEqual([]);

    const listed = await call('GET', '/v1/trash', { token: me.token });
    expect(listed.status).toBe(200);
    expectBudget(listed, 3);
    expect(listed.body).toHaveLength(1);
    const [entry] = listed.body;
    expect(entry).toEqual({
      id: n.id,
      title: 'Doomed',
      tags: ['x'],
      deletedAt: expect.any(Number),
      ownerId: me.id,
      teamId: null,
      shortId: n.shortId,
      publishType: 'edit',
      permanentDeletedAt: entry.deletedAt + config.trashRetentionDays * DAY_MS,
    });
    // the folder no longer counts the trashed note: it can be deleted
    expect((await call('DELETE', `/v1/folders/${folder.id}`, { token: me.token })).status).toBe(204);
  });

  it('restore brings back content, images, history, permalink and folder', async () => {
    const me = await newUser('Restorer');
    const reader = await newUser('Restore Reader');
    const folder = (await call('POST', '/v1/folders', { token: me.token, body: { name: 'Kept' } })).body;
    const n = await createNote(me.token, {
      content: '# Back\nbody',
      readPermission: 'signed_in',
      permalink: 'back-again',
      parentFolderId: folder.id,
    });
    const link = await upload(me.token, n.id);
    await call('GET', `/v1/notes/${n.id}`, { token: reader.token });
    await call('DELETE', `/v1/notes/${n.id}`, { token: me.token });
    expect(ids(await call('GET', '/v1/history', { token: reader.token }))).toEqual([]);
    // the permalink stays reserved while the note is in the trash
    expect(
      (await call('POST', '/v1/notes', { token: me.token, body: { permalink: 'back-again' } })).status,
    ).toBe(409);

    const restored = await call('PUT', `/v1/trash/${n.id}/restore`, { token: me.token });
    expect(restored.status).toBe(204);
    const got = await call('GET', `/v1/notes/${n.shortId}`, { token: me.token });
    expect(got.body).toMatchObject({ id: n.id, content: '# Back\nbody', permalink: 'back-again' });
    expect(got.body.folderPaths.map((f: { id: string }) => f.id)).toEqual([folder.id]);
    expect((await fetch(link)).status).toBe(200);
    expect(ids(await call('GET', '/v1/history', { token: reader.token }))).toEqual([n.id]);
    expect(ids(await call('GET', `/v1/notes?folderId=${folder.id}`, { token: me.token }))).toEqual([n.id]);
    expect((await call('DELETE', `/v1/folders/${folder.id}`, { token: me.token })).status).toBe(409);
    expect((await call('GET', '/v1/trash', { token: me.token })).body).toEqual([]);
    expect((await call('PUT', `/v1/trash/${n.id}/restore`, { token: me.token })).status).toBe(404);
  });

  it('a restore waits for the trash to strip the history entries, so the strip cannot undo it', async () => {
    const me = await newUser('Strip Waiter');
    const reader = await newUser('Strip Reader');
    const n = await createNote(me.token, { readPermission: 'signed_in' });
    await call('GET', `/v1/notes/${n.id}`, { token: reader.token });
    expect((await call('DELETE', `/v1/notes/${n.id}`, { token: me.token })).status).toBe(204);
    // The reader's entry as it is between the trash's transaction and its strip: still listed.
    const Key = notesKeys.visit(n.shortId, reader.id);
    const { Item } = await documentClient().send(new GetCommand({ TableName: config.tableName, Key }));
    const { ttl: _, ...unstripped } = Item!;
    const listed = notesKeys.visitsOfUser(reader.id, Number(Item!.visitedAt), n.shortId);
    await documentClient().send(
      new PutCommand({ TableName: config.tableName, Item: { ...unstripped, ...listed } }),
    );
    const store = new DynamoTrashStore();
    const trashed = (await store.get(n.shortId, Date.now()))!;
    expect(await store.restore(trashed, null, trashed.deletedAt + 1000)).toBe('changed');
    // Past any deleting call's run, no strip can come: the restore goes ahead.
    expect(await store.restore(trashed, null, trashed.deletedAt + STRIP_BOUND_MS)).toBe('restored');
    expect(ids(await call('GET', '/v1/history', { token: reader.token }))).toEqual([n.id]);
    expect((await call('GET', `/v1/notes/${n.id}`, { token: reader.token })).status).toBe(200);
  });

  it('a note whose folder was deleted meanwhile comes back at the top level', async () => {
    const me = await newUser('Folder Gone');
    const folder = (await call('POST', '/v1/folders', { token: me.token, body: { name: 'Gone' } })).body;
    const n = await createNote(me.token, { content: 'x', parentFolderId: folder.id });
    await call('DELETE', `/v1/notes/${n.id}`, { token: me.token });
    await call('DELETE', `/v1/folders/${folder.id}`, { token: me.token });
    expect((await call('PUT', `/v1/trash/${n.shortId}/restore`, { token: me.token })).status).toBe(204);
    expect((await call('GET', `/v1/notes/${n.id}`, { token: me.token })).body.folderPaths).toEqual([]);
  });

  it('batch restore: 200 when all are restored, 207 with per-note outcomes when they differ, 404 when none is found', async () => {
    const me = await newUser('Batch Owner');
    const other = await newUser('Batch Other');
    const [a, b] = [
      await createNote(me.token, { content: 'a' }),
      await createNote(me.token, { content: 'b' }),
    ];
    const theirs = await createNote(other.token, { content: 'c' });
    for (const n of [a, b]) await call('DELETE', `/v1/notes/${n.id}`, { token: me.token });
    await call('DELETE', `/v1/notes/${theirs.id}`, { token: other.token });

    const all = await call('PUT', '/v1/trash/batch-restore', {
      token: me.token,
      body: { noteIds: [a.id, b.shortId] },
    });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ [a.id]: { status: 'success' }, [b.shortId]: { status: 'success' } });
    await call('DELETE', `/v1/notes/${a.id}`, { token: me.token });
    const mixed = await call('PUT', '/v1/trash/batch-restore', {
      token: me.token,
      body: { noteIds: [a.id, theirs.id, 'ZZZZZZZZZZ'] },
    });
    expect(mixed.status).toBe(207);
    expect(mixed.body).toEqual({
      [a.id]: { status: 'success' },
      [theirs.id]: { status: 'failure', reason: 'NOT_FOUND' },
      ZZZZZZZZZZ: { status: 'failure', reason: 'NOT_FOUND' },
    });
    const none = await call('PUT', '/v1/trash/batch-restore', {
      token: me.token,
      body: { noteIds: [theirs.id] },
    });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe(40400);
    for (const body of [{}, { noteIds: [] }, { noteIds: ['bad id!'] }, { noteIds: Array(101).fill(a.id) }]) {
      expect((await call('PUT', '/v1/trash/batch-restore', { token: me.token, body })).status).toBe(422);
    }
  });

  it('team trash: the team admin lists it; the admin or the member who deleted a note restores it', async () => {
    const admin = await newUser('Team Admin');
    const deleter = await newUser('Team Deleter');
    const member = await newUser('Team Member');
    const outsider = await newUser('Team Outsider');
    const team = await newTeam(admin, [deleter, member]);
    const [n1, n2] = [
      await createNote(admin.token, { content: '# one' }, team.path),
      await createNote(admin.token, { content: '# two' }, team.path),
    ];
    for (const n of [n1, n2])
      expect(
        (await call('DELETE', `/v1/teams/${team.path}/notes/${n.id}`, { token: deleter.token })).status,
      ).toBe(204);

    const listed = await call('GET', `/v1/teams/${team.path}/trash`, { token: admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((t: { id: string }) => t.id).sort()).toEqual([n1.id, n2.id].sort());
    expect(listed.body[0]).toMatchObject({ ownerId: admin.id, teamId: team.id });
    expect((await call('GET', `/v1/teams/${team.path}/trash`, { token: member.token })).status).toBe(403);
    expect((await call('GET', `/v1/teams/${team.path}/trash`, { token: outsider.token })).status).toBe(403);
    expect((await call('GET', '/v1/teams/no-such-team-xyz/trash', { token: admin.token })).status).toBe(404);
    expect(ids(await call('GET', '/v1/trash', { token: deleter.token }))).toEqual([]);

    expect((await call('PUT', `/v1/trash/${n1.id}/restore`, { token: member.token })).status).toBe(403);
    expect((await call('PUT', `/v1/trash/${n1.id}/restore`, { token: outsider.token })).status).toBe(404);
    const mixed = await call('PUT', '/v1/trash/batch-restore', {
      token: member.token,
      body: { noteIds: [n1.id] },
    });
    expect(mixed.body).toEqual({ [n1.id]: { status: 'failure', reason: 'PERMISSION_DENIED' } });
    expect((await call('PUT', `/v1/trash/${n1.id}/restore`, { token: deleter.token })).status).toBe(204);
    expect((await call('PUT', `/v1/trash/${n2.id}/restore`, { token: admin.token })).status).toBe(204);
    expect(ids(await call('GET', `/v1/teams/${team.path}/notes`, { token: member.token })).sort()).toEqual(
      [n1.id, n2.id].sort(),
    );
  });

  it('after the retention, the TTL stream function purges the note for good, images included', async () => {
    const me = await newUser('Purged By Stream');
    const reader = await newUser('Purge Reader');
    const n = await createNote(me.token, {
      content: 'x',
      readPermission: 'signed_in',
      permalink: 'purged-one',
    });
    const link = await upload(me.token, n.id);
    await call('GET', `/v1/notes/${n.id}`, { token: reader.token });
    await call('DELETE', `/v1/notes/${n.id}`, { token: me.token });
    // What DynamoDB's TTL does at expiry: remove the META item; the stream then carries its old image.
    const meta = (
      await documentClient().send(
        new GetCommand({ TableName: config.tableName, Key: notesKeys.noteMeta(n.shortId) }),
      )
    ).Item!;
    expect(meta.ttl).toBe(Math.ceil(meta.purgeAt / 1000));
    await documentClient().send(
      new DeleteCommand({ TableName: config.tableName, Key: notesKeys.noteMeta(n.shortId) }),
    );
    const event = {
      Records: [
        {
          eventName: 'REMOVE',
          userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
          dynamodb: { OldImage: marshall(meta, { removeUndefinedValues: true }) },
        },
      ],
    };
    await purgeFromStream(event as unknown as DynamoDBStreamEvent);
    expect(await partition(n.shortId)).toEqual([]);
    expect((await fetch(link)).status).toBe(404);
    expect((await call('PUT', `/v1/trash/${n.id}/restore`, { token: me.token })).status).toBe(404);
    expect(
      (await call('POST', '/v1/notes', { token: me.token, body: { permalink: 'purged-one' } })).status,
    ).toBe(200);
  });

  it('locally, the sweep (npm run admin -- purge-trash) purges what is due, and nothing restorable', async () => {
    const me = await newUser('Purged By Sweep');
    const due = await createNote(me.token, { content: 'due' });
    const link = await upload(me.token, due.id);
    await call('DELETE', `/v1/notes/${due.id}`, { token: me.token });
    const kept = await createNote(me.token, { content: 'kept' });
    // Another user's note, trashed just now: restorable for the whole retention, whatever the sweep.
    const other = await newUser('Trashed Beside The Sweep');
    const bystander = await createNote(other.token, { content: 'still restorable' });
    await call('DELETE', `/v1/notes/${bystander.id}`, { token: other.token });
    await trashSweeper().purgeDue(Date.now());
    expect(await partition(due.shortId)).not.toEqual([]);
    // The retention of this note (and of no other: the table is shared with every test file that
    // runs beside this one, whose trashed notes must stay restorable) ends: what time does to it.
    const past = Date.now() - 1000;
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: notesKeys.noteMeta(due.shortId),
        UpdateExpression: 'SET purgeAt = :past, GSI2SK = :sk',
        ExpressionAttributeValues: { ':past': past, ':sk': trashKeys.expiry(past, due.shortId).GSI2SK },
      }),
    );
    // The sweep at the end of the retention purges it (and never a note that is not in the trash).
    expect(await trashSweeper().purgeDue(Date.now())).toBeGreaterThanOrEqual(1);
    expect(await partition(due.shortId)).toEqual([]);
    expect((await fetch(link)).status).toBe(404);
    expect((await call('GET', `/v1/notes/${kept.id}`, { token: me.token })).status).toBe(200);
    expect(ids(await call('GET', '/v1/trash', { token: other.token }))).toEqual([bystander.id]);
  });
});
