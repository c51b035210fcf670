// Notes API routes for npm run bench, each with its DynamoDB request budget set in its design (auth
// included). ListTeams has no budget of its own; it gets the listing budget. Mutating routes
// (DELETE) work on notes made beforehand, one per call.
import type { TestUserLike } from '../context.ts';
import type { BenchRequest, BenchRoute, BenchScenarios } from '../types.ts';
import { costRoutes } from './notes-costs.ts';
import { revisionRoutes } from './notes-revisions.ts';
import { webhookRoutes } from './notes-webhooks.ts';

/** A 1x1 PNG in a multipart/form-data body with one part named image. */
function imageForm(): { body: Buffer; contentType: string } {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  const boundary = 'bench-notes-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="dot.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Requests and setup calls made as `me`. */
function helpersFor(ctx: Parameters<BenchScenarios>[0], me: { token: string }) {
  const auth = (token: string, extra: Record<string, string> = {}) => ({
    Authorization: `Bearer ${token}`,
    ...extra,
  });
  const json = (token: string) => auth(token, { 'Content-Type': 'application/json' });
  const make = async (body: unknown, teamPath?: string): Promise<{ id: string; shortId: string }> => {
    const res = await ctx.http('POST', teamPath ? `/v1/teams/${teamPath}/notes` : '/v1/notes', {
      token: me.token,
      body,
    });
    if (res.status !== 200) throw new Error(`bench setup: create note -> ${res.status}`);
    return res.body;
  };
  const get = (path: string, token = me.token): BenchRequest => ({
    method: 'GET',
    path,
    headers: auth(token),
  });
  const send = (method: string, path: string, body: unknown): BenchRequest => ({
    method,
    path,
    headers: json(me.token),
    body: JSON.stringify(body),
  });
  return { auth, make, get, send };
}

const route = (
  r: string,
  budget: number,
  request: (i: number) => Promise<BenchRequest> | BenchRequest,
  expectStatus = 200,
): BenchRoute => ({ route: r, budget, expectStatus, request });

/**
 * A route that only reads: its one write is the caller's rate-limit count, 1 write unit; it reads
 * no more than it did before that count was brought down (`readUnits`, as measured then).
 */
const reading = (r: string, budget: number, readUnits: number, request: () => BenchRequest): BenchRoute => ({
  ...route(r, budget, request),
  writeUnits: 1,
  readUnits,
});

export const scenarios: BenchScenarios = async (ctx) => {
  const owner = await ctx.newUser('Bench Notes Owner');
  const reader = await ctx.newUser('Bench Notes Reader');
  const team = await ctx.newTeam(owner, [reader]);
  const { auth, make, get, send } = helpersFor(ctx, owner);
  const shared = await make({ content: '# Shared\nlong-lived', readPermission: 'signed_in' });
  const teamNote = await make({ content: '# Team note' }, team.path);
  for (let i = 0; i < 20; i += 1) await make({ content: `# Note ${i}` });
  // The listing rows read a workspace of a fixed size, whatever the iterations (the owner's grows
  // with the notes the delete rows need): 20 notes (and their 20 history entries), a team of 5.
  const lister = await ctx.newUser('Bench Notes Lister');
  const shelf = await ctx.newTeam(lister, [reader]);
  const listing = helpersFor(ctx, lister);
  for (let i = 0; i < 20; i += 1) await listing.make({ content: `# Listed ${i}` });
  for (let i = 0; i < 5; i += 1) await listing.make({ content: `# Shelved ${i}` }, shelf.path);
  const doomed: { id: string }[] = [];
  const doomedTeam: { id: string }[] = [];
  for (let i = 0; i < ctx.iterations; i += 1) {
    doomed.push(await make({ content: 'to delete' }));
    doomedTeam.push(await make({ content: 'to delete' }, team.path));
  }
  await ctx.http('GET', `/v1/notes/${shared.id}`, { token: reader.token });
  const form = imageForm();
  // The notes reach the search index through the table's stream: wait until a search finds them.
  for (let waited = 0; waited < 30_000; waited += 250) {
    const found = await ctx.http('GET', '/v1/search?q=note&limit=5', { token: owner.token });
    if (found.body?.results?.length === 5) break;
    await new Promise((r) => setTimeout(r, 250));
  }

  const teamNotes = `/v1/teams/${team.path}/notes`;

  return [
    reading('GET /v1/me', 3, 0.5, () => get('/v1/me')),
    reading('GET /v1/teams', 3, 0.5, () => get('/v1/teams')),
    reading('GET /v1/notes', 3, 3, () => get('/v1/notes', lister.token)),
    // Token, the user's partition, the content's PutItem, the note's transaction (docs/notes.md, "Data").
    route('POST /v1/notes', 4, (i) =>
      send('POST', '/v1/notes', { content: `# Bench ${i}`, tags: ['bench'] }),
    ),
    route('GET /v1/notes/{noteId}', 4, () => get(`/v1/notes/${shared.id}`, reader.token)),
    // A content change also keeps the note's system version: + latest-version Query + its metadata's PutItem;
    // its content is a PutItem of its own; a note with a live document also has that document's
    // Query (docs/live.md; this one has none).
    route('PATCH /v1/notes/{noteId}', 7, (i) =>
      send('PATCH', `/v1/notes/${shared.id}`, { content: `# Shared\nedit ${i}` }),
    ),
    // Token, the note's Query, the trash's transaction, the history entries' BatchWriteItem.
    route(
      'DELETE /v1/notes/{noteId}',
      4,
      (i) => ({
        method: 'DELETE',
        path: `/v1/notes/${doomed[i % doomed.length].id}`,
        headers: auth(owner.token),
      }),
      204,
    ),
    route('POST /v1/notes/{noteId}/images', 3, () => ({
      method: 'POST',
      path: `/v1/notes/${shared.id}/images`,
      headers: auth(owner.token, { 'Content-Type': form.contentType }),
      body: form.body,
    })),
    reading('GET /v1/teams/{teamPath}/notes', 3, 2, () => get(`/v1/teams/${shelf.path}/notes`, reader.token)),
    route('POST /v1/teams/{teamPath}/notes', 4, (i) =>
      send('POST', teamNotes, { content: `# Team bench ${i}` }),
    ),
    // Token, membership, the note's Query, the history entry, the visit counter's bump.
    route('GET /v1/teams/{teamPath}/notes/{noteId}', 5, () =>
      get(`${teamNotes}/${teamNote.shortId}`, reader.token),
    ),
    // A tags-only change: token, membership, the note's Query, the history entry, META.
    route('PATCH /v1/teams/{teamPath}/notes/{noteId}', 5, (i) =>
      send('PATCH', `${teamNotes}/${teamNote.id}`, { tags: [`t${i}`] }),
    ),
    // Token, membership, the note's Query, the trash's transaction, the history entries' BatchWriteItem.
    route(
      'DELETE /v1/teams/{teamPath}/notes/{noteId}',
      5,
      (i) => ({
        method: 'DELETE',
        path: `${teamNotes}/${doomedTeam[i % doomedTeam.length].id}`,
        headers: auth(owner.token),
      }),
      204,
    ),
    reading('GET /v1/history', 3, 5, () => get('/v1/history?limit=100', lister.token)),
    // Search (extension): the rate-limit UpdateItem, the caller's teams (Query), the indexes' heads
    // (BatchGetItem, at most once a second per function), then the hits shown (one BatchGetItem per
    // 50); the index's segments are S3 objects, no request.
    route('GET /v1/search', 4, () => get('/v1/search?q=note&limit=5')),
    // Folders and the trash in a workspace of their own, so that the rows above measure a workspace
    // without folders (as before folders existed) and the rows below the cost folders add.
    ...(await pageRoutes(ctx, make)),
    ...(await folderAndTrashRoutes(ctx, reader)),
    ...(await costRoutes(ctx)),
    ...(await revisionRoutes(ctx, reader)),
    ...(await webhookRoutes(ctx)),
  ];
};

/**
 * Folders (a workspace of 30 folders, nested 3 deep), notes in folders, the trash. Budgets: auth (the
 * token's counting UpdateItem) + the tree Query (one per workspace) + one write; team routes add the
 * membership GetItem. Mutating rows work on data made beforehand or by the request builder.
 */
async function folderAndTrashRoutes(
  ctx: Parameters<BenchScenarios>[0],
  reader: TestUserLike,
): Promise<BenchRoute[]> {
  const owner = await ctx.newUser('Bench Notes Filer');
  const team = await ctx.newTeam(owner, [reader]);
  const { auth, make, get, send } = helpersFor(ctx, owner);
  const folder = async (body: unknown, teamPath?: string): Promise<{ id: string }> => {
    const res = await ctx.http('POST', teamPath ? `/v1/teams/${teamPath}/folders` : '/v1/folders', {
      token: owner.token,
      body,
    });
    if (res.status !== 201) throw new Error(`bench setup: create folder -> ${res.status}`);
    return res.body;
  };
  let parent = '';
  const tree: { id: string }[] = [];
  for (let i = 0; i < 30; i += 1) {
    const f = await folder({ name: `F${i}`, parentFolderId: i % 10 === 0 ? '' : parent });
    tree.push(f);
    parent = i % 3 === 2 ? '' : f.id;
  }
  const home = tree[1];
  for (let i = 0; i < 10; i += 1) await make({ content: `# In folder ${i}`, parentFolderId: home.id });
  const filed = await make({ content: '# Filed', parentFolderId: home.id });
  const teamFolder = await folder({ name: 'Team F' }, team.path);
  const teamFolders = `/v1/teams/${team.path}/folders`;
  const trashed = async (teamPath?: string) => {
    const n = await make({ content: 'to trash' }, teamPath);
    await ctx.http('DELETE', `/v1/notes/${n.id}`, { token: owner.token });
    return n;
  };
  for (let i = 0; i < 10; i += 1) await trashed();
  const put = (path: string, body?: unknown): BenchRequest => ({
    ...send('PUT', path, body ?? {}),
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  return [
    route('GET /v1/folders', 2, () => get('/v1/folders')),
    route(
      'POST /v1/folders',
      3,
      (i) => send('POST', '/v1/folders', { name: `Bench ${i}`, parentFolderId: home.id }),
      201,
    ),
    route('GET /v1/folders/{folderId}', 2, () => get(`/v1/folders/${home.id}`)),
    route(
      'PATCH /v1/folders/{folderId}',
      3,
      (i) =>
        send('PATCH', `/v1/folders/${tree[2].id}`, {
          name: `Renamed ${i}`,
          parentFolderId: i % 2 ? null : tree[10].id,
        }),
      202,
    ),
    route(
      'DELETE /v1/folders/{folderId}',
      3,
      async () => {
        const f = await folder({ name: 'doomed' });
        return { method: 'DELETE', path: `/v1/folders/${f.id}`, headers: auth(owner.token) };
      },
      204,
    ),
    route('GET /v1/folders/folder-order', 2, () => get('/v1/folders/folder-order')),
    route(
      'PUT /v1/folders/folder-order',
      3,
      (i) =>
        put('/v1/folders/folder-order', {
          order: { root: i % 2 ? [tree[10].id, tree[0].id] : [tree[0].id] },
        }),
      204,
    ),
    route('GET /v1/teams/{teamPath}/folders', 3, () => get(teamFolders)),
    route(
      'POST /v1/teams/{teamPath}/folders',
      4,
      (i) => send('POST', teamFolders, { name: `Team bench ${i}` }),
      201,
    ),
    route('GET /v1/teams/{teamPath}/folders/{folderId}', 3, () => get(`${teamFolders}/${teamFolder.id}`)),
    route(
      'PATCH /v1/teams/{teamPath}/folders/{folderId}',
      4,
      (i) => send('PATCH', `${teamFolders}/${teamFolder.id}`, { color: i % 2 ? '#fff' : null }),
      202,
    ),
    route(
      'DELETE /v1/teams/{teamPath}/folders/{folderId}',
      4,
      async () => {
        const f = await folder({ name: 'doomed' }, team.path);
        return { method: 'DELETE', path: `${teamFolders}/${f.id}`, headers: auth(owner.token) };
      },
      204,
    ),
    route('GET /v1/teams/{teamPath}/folders/folder-order', 3, () => get(`${teamFolders}/folder-order`)),
    route(
      'PUT /v1/teams/{teamPath}/folders/folder-order',
      4,
      () => put(`${teamFolders}/folder-order`, { order: { root: [teamFolder.id] } }),
      204,
    ),
    { ...route('GET /v1/notes', 4, () => get('/v1/notes')), label: 'notes in folders (+ tree Query)' },
    {
      ...route('GET /v1/notes', 4, () => get(`/v1/notes?folderId=${home.id}`)),
      label: 'folderId (GetItem, GSI3, tree)',
    },
    {
      ...route('GET /v1/notes/{noteId}', 5, () => get(`/v1/notes/${filed.id}`)),
      label: 'in a folder (+ tree Query)',
    },
    route('GET /v1/trash', 2, () => get('/v1/trash')),
    route(
      'PUT /v1/trash/{noteId}/restore',
      3,
      async () => put(`/v1/trash/${(await trashed()).id}/restore`),
      204,
    ),
    route('PUT /v1/trash/batch-restore', 5, async () =>
      put('/v1/trash/batch-restore', { noteIds: [(await trashed()).id, (await trashed()).id] }),
    ),
    route('GET /v1/teams/{teamPath}/trash', 3, () => get(`/v1/teams/${team.path}/trash`)),
  ];
}

/** About 20 KiB of markdown as notes have it: headings, lists, task lists, a table, code, footnotes. */
export function pageMarkdown(bytes = 20 * 1024): string {
  const section = (i: number) =>
    [
      `## Section ${i}`,
      `Some *emphasis*, **strong** text, \`code\`, a [link](https://example.org/${i}) and a footnote.[^${i}]`,
      '- [x] done item',
      '- [ ] open item',
      '',
      '| key | value |',
      '|:----|------:|',
      `| a${i} | ${i} |`,
      '',
      '```js',
      `const value${i} = compute(${i}); // highlighted`,
      '```',
      '',
      `[^${i}]: Footnote ${i}.`,
      '',
    ].join('\n');
  let out = '# Bench page\n###### tags: `bench`\n[TOC]\n\n';
  for (let i = 0; Buffer.byteLength(out) < bytes; i += 1) out += section(i);
  return out;
}

/**
 * The read-only page of a guest-readable 20 KiB note, at its shortId and its permalink; 304; the
 * stylesheet. A page reads the note's metadata, and its content only to render it. A private 280 KiB
 * note's address and an address with no note read the same (the 404 rows: same requests and units).
 */
async function pageRoutes(
  ctx: Parameters<BenchScenarios>[0],
  make: (body: unknown) => Promise<{ id: string; shortId: string }>,
): Promise<BenchRoute[]> {
  const note = (await make({
    content: pageMarkdown(),
    readPermission: 'guest',
    permalink: 'bench-page',
  })) as unknown as { shortId: string; userPath: string };
  // A fresh note per call: its first view, rendered (the row above reads a page rendered before).
  const fresh: { shortId: string }[] = [];
  // The worst notes for the renderer (lib/notes/pages/markdown.ts, RENDER_LIMITS), each viewed
  // first: one within the budget (150 tables of contents of 150 headings: 0.7 MB of HTML) and one
  // past it (35,000 task-list items: its text in a <pre>). Their p50 against the first view of the
  // 20 KiB note above, in the same run, is the cost of the worst case.
  const worst: { shortId: string }[] = [];
  const past: { shortId: string }[] = [];
  for (let i = 0; i <= ctx.iterations; i += 1) {
    fresh.push(await make({ content: pageMarkdown(), readPermission: 'guest' }));
    worst.push(await make({ content: `${i}\n${'[TOC]\n# h\n'.repeat(150)}`, readPermission: 'guest' }));
    past.push(await make({ content: `${i}\n${'- [ ] x\n'.repeat(35_000)}`, readPermission: 'guest' }));
  }
  const secret = (await make({
    content: pageMarkdown(280 * 1024),
    readPermission: 'owner',
    permalink: 'bench-secret',
  })) as unknown as { shortId: string; userPath: string };
  const html = { Accept: 'text/html' };
  const first = await ctx.http('GET', `/${note.shortId}`, { headers: html });
  const etag = first.headers.get('etag') ?? '';
  const css = /href="([^"]+\.css)"/.exec(String(first.body))?.[1] ?? '/_page/none.css';
  return [
    {
      route: 'GET /{address}',
      label: '20 KiB note',
      budget: 1,
      expectStatus: 200,
      request: () => ({ method: 'GET', path: `/${note.shortId}`, headers: html }),
    },
    {
      route: 'GET /{address}',
      label: '20 KiB note, first view',
      budget: 2,
      expectStatus: 200,
      request: (i) => ({ method: 'GET', path: `/${fresh[i].shortId}`, headers: html }),
    },
    {
      route: 'GET /{address}',
      label: 'worst note within the render budget, first view',
      budget: 2,
      expectStatus: 200,
      request: (i) => ({ method: 'GET', path: `/${worst[i].shortId}`, headers: html }),
    },
    {
      route: 'GET /{address}',
      label: 'note past the render budget, first view',
      budget: 2,
      expectStatus: 200,
      request: (i) => ({ method: 'GET', path: `/${past[i].shortId}`, headers: html }),
    },
    {
      route: 'GET /{address}',
      label: '304',
      budget: 1,
      expectStatus: 304,
      request: () => ({
        method: 'GET',
        path: `/${note.shortId}`,
        headers: { ...html, 'If-None-Match': etag },
      }),
    },
    {
      route: 'GET /{address}/{permalink}',
      label: '20 KiB note',
      budget: 4,
      expectStatus: 200,
      request: () => ({ method: 'GET', path: `/@${note.userPath}/bench-page`, headers: html }),
    },
    {
      route: 'GET /{address}',
      label: 'private 280 KiB note, 404',
      budget: 1,
      expectStatus: 404,
      request: () => ({ method: 'GET', path: `/${secret.shortId}`, headers: html }),
    },
    {
      route: 'GET /{address}',
      label: 'no note, 404',
      budget: 1,
      expectStatus: 404,
      request: () => ({
        method: 'GET',
        path: `/${secret.shortId.replace(/.$/, (c: string) => (c === 'x' ? 'y' : 'x'))}`,
        headers: html,
      }),
    },
    {
      route: 'GET /{address}/{permalink}',
      label: 'private 280 KiB note, 404',
      budget: 4,
      expectStatus: 404,
      request: () => ({ method: 'GET', path: `/@${secret.userPath}/bench-secret`, headers: html }),
    },
    {
      route: 'GET /{address}/{permalink}',
      label: 'no note, 404',
      budget: 4,
      expectStatus: 404,
      request: () => ({ method: 'GET', path: `/@${secret.userPath}/bench-secres`, headers: html }),
    },
    {
      route: 'GET /_page/{asset}',
      budget: 0,
      expectStatus: 200,
      request: () => ({ method: 'GET', path: css }),
    },
  ];
}
