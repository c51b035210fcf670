// Event-payload tests: the handlers called with API Gateway REST proxy events, against DynamoDB
// Local and the S3 emulator (no runner in between): a base64 multipart body, as API Gateway delivers
// it for a binary media type, and the items a note leaves in the table.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as createNote } from '../../functions/notes/create-note.ts';
import { handler as deleteNote } from '../../functions/notes/delete-note.ts';
import { handler as getHistory } from '../../functions/notes/get-history.ts';
import { handler as getNote } from '../../functions/notes/get-note.ts';
import { handler as updateNote } from '../../functions/notes/update-note.ts';
import { handler as uploadImage } from '../../functions/notes/upload-note-image.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { s3Client } from '../../lib/data/s3.ts';
import { notesKeys } from '../../lib/data/keys.ts';
import { apiEvent, invoke } from '../support/events.ts';
import { newUser } from '../support/identity.ts';
import { multipart, PNG } from './helpers.ts';

const partition = async (shortId: string) =>
  (
    await documentClient().send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': notesKeys.notePartition(shortId) },
      }),
    )
  ).Items ?? [];

describe('Notes handlers with API Gateway events', () => {
  it('create, read, update, upload (base64 multipart) and delete', async () => {
    const me = await newUser();
    const created = await invoke(createNote, {
      method: 'POST',
      resource: '/v1/notes',
      token: me.token,
      body: { content: '# Event', permalink: 'ev' },
    });
    expect(created.status).toBe(200);
    const { id, shortId } = created.body;
    expect((await partition(shortId)).map((i) => i.SK).sort()).toEqual([
      'NOTE#CONTENT',
      'NOTE#META',
      `VISIT#${me.id}`,
    ]);

    const read = await invoke(getNote, {
      method: 'GET',
      resource: '/v1/notes/{noteId}',
      pathParameters: { noteId: shortId },
      token: me.token,
    });
    expect(read).toMatchObject({ status: 200, body: { id, content: '# Event' } });
    const notModified = await invoke(getNote, {
      method: 'GET',
      resource: '/v1/notes/{noteId}',
      pathParameters: { noteId: id },
      token: me.token,
      headers: { 'If-None-Match': read.headers.etag },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.raw).toBe('');

    const stale = await invoke(updateNote, {
      method: 'PATCH',
      resource: '/v1/notes/{noteId}',
      pathParameters: { noteId: id },
      token: me.token,
      headers: { 'If-Match': '"old-1"' },
      body: { content: 'x' },
    });
    expect(stale.status).toBe(412);
    const updated = await invoke(updateNote, {
      method: 'PATCH',
      resource: '/v1/notes/{noteId}',
      pathParameters: { noteId: id },
      token: me.token,
      headers: { 'If-Match': read.headers.etag },
      body: { content: 'x' },
    });
    expect(updated).toMatchObject({ status: 200, body: { content: 'x', title: 'Untitled' } });

    const form = multipart([{ name: 'image', filename: 'dot.png', type: 'image/png', data: PNG }]);
    const uploaded = await invoke(uploadImage, {
      method: 'POST',
      resource: '/v1/notes/{noteId}/images',
      pathParameters: { noteId: id },
      token: me.token,
      headers: form.headers,
      body: form.raw,
    });
    expect(uploaded.status).toBe(200);
    const key = uploaded.body.data.link.slice(`${process.env.IMAGE_BASE_URL}/`.length);
    const object = await s3Client().send(new GetObjectCommand({ Bucket: process.env.BUCKET_NAME, Key: key }));
    expect(object.ContentType).toBe('image/png');
    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(PNG);

    expect(
      (await invoke(getHistory, { method: 'GET', resource: '/v1/history', token: me.token })).body.map(
        (n: { id: string }) => n.id,
      ),
    ).toEqual([id]);
    expect(
      (
        await invoke(deleteNote, {
          method: 'DELETE',
          resource: '/v1/notes/{noteId}',
          pathParameters: { noteId: id },
          token: me.token,
        })
      ).status,
    ).toBe(204);
    // moved to the trash: its items stay, each with the TTL that purges it, but the content (both
    // slots: the update wrote slot B): the trash does not rewrite it (twice its size in write
    // units); the purge deletes it with the rest
    const left = await partition(shortId);
    expect(
      left
        .filter((i) => typeof i.ttl !== 'number')
        .map((i) => i.SK)
        .sort(),
    ).toEqual(['NOTE#CONTENT', 'NOTE#CONTENT#B']);
    expect(
      (await invoke(getHistory, { method: 'GET', resource: '/v1/history', token: me.token })).body,
    ).toEqual([]);
    // restorable, so the image stays until the note is purged (trash.test.ts)
    await expect(
      s3Client().send(new GetObjectCommand({ Bucket: process.env.BUCKET_NAME, Key: key })),
    ).resolves.toBeDefined();
  });
  it("publishLink: under the URL the request arrived at when PUBLIC_BASE_URL is empty (the template's default), PUBLIC_BASE_URL when set", async () => {
    const me = await newUser();
    const create = (permalink: string) =>
      invoke(createNote, { method: 'POST', resource: '/v1/notes', token: me.token, body: { permalink } });
    const configured = process.env.PUBLIC_BASE_URL;
    try {
      // Deployed without PublicBaseUrl: API Gateway's domain of the request and its stage.
      process.env.PUBLIC_BASE_URL = '';
      const own = await create('own-url');
      const apiUrl = `https://${apiEvent({ method: 'GET', resource: '/' }).headers.Host}/prod`;
      expect(apiUrl).toMatch(/^https:\/\/\w+\.execute-api\.[\w-]+\.amazonaws\.com\/prod$/);
      expect(own.body.publishLink).toBe(`${apiUrl}/@${me.userPath}/own-url`);
      const read = await invoke(getNote, {
        method: 'GET',
        resource: '/v1/notes/{noteId}',
        pathParameters: { noteId: own.body.id },
        token: me.token,
      });
      expect(read.body.publishLink).toBe(`${apiUrl}/@${me.userPath}/own-url`);
      // A custom domain: PublicBaseUrl.
      process.env.PUBLIC_BASE_URL = 'https://notes.example.org/';
      expect((await create('custom-domain')).body.publishLink).toBe(
        `https://notes.example.org/@${me.userPath}/custom-domain`,
      );
    } finally {
      process.env.PUBLIC_BASE_URL = configured;
    }
  });

  it('an unterminated multipart body: 422 naming the body, and no error event left unhandled afterwards', async () => {
    const me = await newUser();
    const late: unknown[] = [];
    const record = (err: unknown) => late.push(err);
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
    try {
      const res = await invoke(uploadImage, {
        method: 'POST',
        resource: '/v1/notes/{noteId}/images',
        pathParameters: { noteId: 'AAAAAAAAAAAAAAAAAAAAAA' },
        token: me.token,
        headers: { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
        body: Buffer.from(
          '--XyZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n' +
            'Content-Type: image/png\r\n\r\nabc\r\n',
        ),
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        code: 42200,
        errors: [{ field: 'body', message: expect.stringMatching(/unexpected end/i) }],
      });
      // busboy's part stream fails a tick after the parse did: give it several.
      for (let i = 0; i < 5; i += 1) await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 50));
      expect(late).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
    }
  });
});
