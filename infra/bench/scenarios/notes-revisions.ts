// Versions and comments rows of `npm run bench` (Notes). Budgets (auth included: the token's
// counting UpdateItem; then the note's partition Query): reads add their own Query or GetItems,
// writes the caller's profile Query (the name shown) and one transaction; docs/notes.md lists each.
// Mutating rows work on data the request builder makes first (a content change before each named
// version, a fresh thread per resolution).
import { randomBytes } from 'node:crypto';
import type { TestUserLike } from '../context.ts';
import type { BenchRequest, BenchRoute, BenchScenarios } from '../types.ts';

type Ctx = Parameters<BenchScenarios>[0];

export async function revisionRoutes(ctx: Ctx, reader: TestUserLike): Promise<BenchRoute[]> {
  const owner = await ctx.newUser('Bench Revisions Owner');
  const call = async (method: string, path: string, body?: unknown, token = owner.token) => {
    const res = await ctx.http(method, path, { token, body });
    if (res.status >= 300) throw new Error(`bench setup: ${method} ${path} -> ${res.status}`);
    return res.body;
  };
  const headers = (token: string, json = false) => ({
    Authorization: `Bearer ${token}`,
    ...(json ? { 'Content-Type': 'application/json' } : {}),
  });
  const get = (path: string, token = reader.token): BenchRequest => ({
    method: 'GET',
    path,
    headers: headers(token),
  });
  const send = (method: string, path: string, body: unknown): BenchRequest => ({
    method,
    path,
    headers: headers(owner.token, true),
    body: JSON.stringify(body),
  });

  // A 20 KB note with 20 named versions, 10 threads of 2 replies (half anchored on older content).
  const paragraph = (i: number) => `## Section ${i}\n${'Some text of a realistic note. '.repeat(30)}\n\n`;
  let content = Array.from({ length: 20 }, (_, i) => paragraph(i)).join('');
  const note = await call('POST', '/v1/notes', { content, readPermission: 'signed_in' });
  const notePath = `/v1/notes/${note.id}`;
  for (let i = 0; i < 20; i += 1) {
    content = content.replace(`Section ${i}\n`, `Section ${i} (rev)\n`);
    await call('PATCH', notePath, { content });
    await call('POST', `${notePath}/versions`, { name: `Release ${i}` });
  }
  const versions = (await call('GET', `${notePath}/versions`)).data as { id: string }[];
  let namingNote = notePath;
  const threads: { id: string }[] = [];
  for (let i = 0; i < 10; i += 1) {
    const anchor = i % 2 ? { offset: content.indexOf(`Section ${i}`), length: 9 } : undefined;
    const head = await call('POST', `${notePath}/comments`, { body: `Thread ${i}`, anchor });
    for (let j = 0; j < 2; j += 1)
      await call('POST', `${notePath}/comments`, { body: `Reply ${j}`, threadId: head.id }, reader.token);
    threads.push(head);
  }
  // Change the content after the anchors were written: reads map them through the edit.
  await call('PATCH', notePath, { content: `# Intro\n\n${content}` });
  const reply = (await call('GET', `${notePath}/comments?threadId=${threads[1].id}`)).comments[1];
  const thread = () => call('POST', `${notePath}/comments`, { body: 'to resolve' });

  // Notes at the largest content size (300 KiB): markdown, and text that barely compresses.
  const markdown = Array.from({ length: 600 }, (_, i) => paragraph(i))
    .join('')
    .slice(0, 300 * 1024);
  const noise = Array.from(randomBytes(300 * 1024), (b) => String.fromCharCode(33 + (b % 94))).join('');
  const large = async (text: string) => (await call('POST', '/v1/notes', { content: text })).id as string;
  const [largeMarkdown, largeNoise] = [await large(markdown), await large(noise)];
  const editLarge = (id: string, text: string) => (i: number) =>
    send('PATCH', `/v1/notes/${id}`, { content: `${String(i).padStart(6, '0')}${text.slice(6)}` });

  const row = (
    route: string,
    budget: number,
    request: (i: number) => Promise<BenchRequest> | BenchRequest,
    expectStatus = 200,
  ): BenchRoute => ({ route, budget, expectStatus, request });
  return [
    {
      // 6 + the live document's Query (docs/live.md).
      ...row('PATCH /v1/notes/{noteId}', 7, editLarge(largeMarkdown, markdown)),
      label: 'content change of a 300 KiB markdown note, versioned',
    },
    {
      ...row('PATCH /v1/notes/{noteId}', 7, editLarge(largeNoise, noise)),
      label: 'content change of 300 KiB that barely compresses, versioned',
    },
    row('GET /v1/notes/{noteId}/versions', 3, () => get(`${notePath}/versions`)),
    row(
      'POST /v1/notes/{noteId}/versions',
      5,
      async (i) => {
        // A note keeps at most MAX_NAMED_VERSIONS named versions: a fresh note every 25 calls.
        if (i % 25 === 0) namingNote = `/v1/notes/${(await call('POST', '/v1/notes', { content })).id}`;
        // Each call names the system version the content change before it started.
        await call('PATCH', namingNote, { content: `${content}\nbench ${i}` });
        return send('POST', `${namingNote}/versions`, { name: `Bench ${i}` });
      },
      201,
    ),
    row('PATCH /v1/notes/{noteId}/versions', 4, (i) =>
      send('PATCH', `${notePath}/versions`, { base: `version:${versions[3].id}`, description: `d${i}` }),
    ),
    row('GET /v1/notes/{noteId}/versions/{versionId}', 4, () =>
      get(`${notePath}/versions/${versions[5].id}`),
    ),
    row('GET /v1/notes/{noteId}/versions/compare', 4, () =>
      get(`${notePath}/versions/compare?base=version:${versions[10].id}&target=note_content`),
    ),
    row('GET /v1/notes/{noteId}/comments', 6, () => get(`${notePath}/comments`)),
    row(
      'POST /v1/notes/{noteId}/comments',
      4,
      (i) => send('POST', `${notePath}/comments`, { body: `Bench ${i}`, anchor: { offset: 0, length: 7 } }),
      201,
    ),
    row('GET /v1/notes/{noteId}/comments/{commentId}', 5, () => get(`${notePath}/comments/${reply.id}`)),
    row('PATCH /v1/notes/{noteId}/comments/{commentId}', 5, (i) =>
      send('PATCH', `${notePath}/comments/${threads[0].id}`, { body: `edited ${i}` }),
    ),
    row(
      'DELETE /v1/notes/{noteId}/comments/{commentId}',
      4,
      async () => ({
        method: 'DELETE',
        path: `${notePath}/comments/${(await thread()).id}`,
        headers: headers(owner.token),
      }),
      204,
    ),
    row('PUT /v1/notes/{noteId}/comments/{commentId}/resolution', 6, async () => ({
      method: 'PUT',
      path: `${notePath}/comments/${(await thread()).id}/resolution`,
      headers: headers(owner.token),
    })),
    row('DELETE /v1/notes/{noteId}/comments/{commentId}/resolution', 6, async () => {
      const t = await thread();
      await call('PUT', `${notePath}/comments/${t.id}/resolution`);
      return {
        method: 'DELETE',
        path: `${notePath}/comments/${t.id}/resolution`,
        headers: headers(owner.token),
      };
    }),
  ];
}
