// The Notes page's examples, grouped as the page is: the caller, personal notes, versions, comments,
// folders, the trash, then a team's notes, folders and trash.
import type { Context, Page } from './capture.ts';

/** A 1×1 PNG, the smallest image an upload accepts. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export async function notesExamples(p: Page, ctx: Context): Promise<void> {
  p.text('### You, your teams, your history');
  await p.call('The current user: `GET /v1/me`', 'GET', '/v1/me');
  await p.call('Your teams: `GET /v1/teams`', 'GET', '/v1/teams');
  await p.call('Notes you read or changed, newest first: `GET /v1/history`', 'GET', '/v1/history?limit=2');

  p.text('### Personal notes');
  const created = await p.call('Create a note: `POST /v1/notes`', 'POST', '/v1/notes', {
    headers: { 'Idempotency-Key': `groceries-${ctx.run}` },
    body: {
      title: 'Groceries',
      content: '# Groceries\n\n- milk\n- bread\n',
      tags: ['home'],
      readPermission: 'owner',
      writePermission: 'owner',
    },
  });
  const id = created.json.id;
  p.text('The body may also be a bare JSON string (the content), as HackMD accepts it: `-d \'"# Hello"\'`.');
  await p.call('List your notes: `GET /v1/notes`', 'GET', '/v1/notes');
  const read = await p.call(
    'Read one (by `id` or `shortId`): `GET /v1/notes/{noteId}`',
    'GET',
    `/v1/notes/${id}`,
  );
  const etag = read.headers.get('etag') ?? '';
  await p.call('Read it again only if it changed: `If-None-Match`', 'GET', `/v1/notes/${id}`, {
    headers: { 'If-None-Match': etag },
  });
  await p.call(
    'Change it, unless someone else did first: `PATCH /v1/notes/{noteId}` with `If-Match`',
    'PATCH',
    `/v1/notes/${id}`,
    {
      headers: { 'If-Match': etag },
      body: { content: '# Groceries\n\n- milk\n- bread\n- coffee\n', readPermission: 'signed_in' },
    },
  );
  await p.call('The same `If-Match` again: the note has moved on', 'PATCH', `/v1/notes/${id}`, {
    headers: { 'If-Match': etag },
    body: { title: 'Shopping' },
  });
  await p.call('Attach an image: `POST /v1/notes/{noteId}/images`', 'POST', `/v1/notes/${id}/images`, {
    form: { field: 'image', file: 'pixel.png', type: 'image/png', bytes: PIXEL },
  });

  p.text('### Note pages and search');
  p.text(
    'A note whose `readPermission` is `guest` has a read-only HTML page at its `publishLink` (and, with ' +
      'a permalink, at `/@<userPath>/<permalink>`), for anyone, no token. Any other note answers the same ' +
      '404 page.',
  );
  const shown = await p.call('A guest-readable note with a permalink', 'POST', '/v1/notes', {
    body: {
      content: `# Welcome\n\nRead by anyone, **rendered** as HackMD renders it.\n\n- [x] a task list\n`,
      readPermission: 'guest',
      permalink: `welcome-${ctx.run}`,
    },
  });
  await p.call('Its page: `GET /{address}`', 'GET', `/${shown.json.shortId}`, {
    token: '',
    headers: { Accept: 'text/html' },
  });
  const owner = new URL(String(shown.json.publishLink)).pathname.split('/')[1];
  const byPermalink = owner?.startsWith('@') ? owner : `@${shown.json.userPath}`;
  await p.call(
    'The same page by permalink: `GET /{address}/{permalink}`',
    'GET',
    `/${byPermalink}/welcome-${ctx.run}`,
    { token: '', headers: { Accept: 'text/html' } },
  );
  const stylesheet = /\/_page\/[^"']+/.exec(
    await (await fetch(`${ctx.base}/${shown.json.shortId}`)).text(),
  )?.[0];
  if (stylesheet)
    await p.call("The page's stylesheet: `GET /_page/{asset}`", 'GET', stylesheet, { token: '' });
  p.text(
    'Search (an extension) finds the words of every note you may read, a few seconds after a change (docs/search.md):',
  );
  const query = '/v1/search?q=rendered&limit=2';
  for (let i = 0; i < 40; i++) {
    const found = await fetch(ctx.base + query, { headers: { authorization: `Bearer ${ctx.user.token}` } });
    if (((await found.json()) as { results?: unknown[] }).results?.length) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await p.call("Search your notes and your teams' notes: `GET /v1/search`", 'GET', query);

  p.text('### Live editing');
  p.text(
    'Several people (and programs) can type into one note at once over a WebSocket, with Yjs (an ' +
      'extension; docs/live.md). Ask for a single-use URL, then connect to it within 60 s:',
  );
  await p.call('A URL to edit the note live: `POST /v1/notes/{noteId}/live`', 'POST', `/v1/notes/${id}/live`);

  p.text('### Versions');
  p.text('Every content change keeps a version; naming one keeps it apart from the automatic ones.');
  const versions = await p.call(
    'List versions: `GET /v1/notes/{noteId}/versions`',
    'GET',
    `/v1/notes/${id}/versions`,
  );
  const newest = versions.json.data[0].id;
  const oldest = versions.json.data[versions.json.data.length - 1].id;
  await p.call(
    'Name the current content: `POST /v1/notes/{noteId}/versions`',
    'POST',
    `/v1/notes/${id}/versions`,
    {
      body: { name: 'Before the party', description: 'The list as agreed' },
    },
  );
  await p.call('Rename a version: `PATCH /v1/notes/{noteId}/versions`', 'PATCH', `/v1/notes/${id}/versions`, {
    body: { base: `version:${newest}`, name: 'Agreed list' },
  });
  await p.call(
    'Read one version: `GET /v1/notes/{noteId}/versions/{versionId}`',
    'GET',
    `/v1/notes/${id}/versions/${oldest}`,
  );
  await p.call(
    'Compare two versions: `GET /v1/notes/{noteId}/versions/compare`',
    'GET',
    `/v1/notes/${id}/versions/compare?base=version:${oldest}&target=note_content`,
  );

  p.text('### Comments');
  const comment = await p.call(
    'Comment on a passage: `POST /v1/notes/{noteId}/comments`',
    'POST',
    `/v1/notes/${id}/comments`,
    {
      body: { body: 'Oat milk, please.', anchor: { offset: 14, length: 4 } },
    },
  );
  const cid = comment.json.id;
  await p.call('Reply in its thread', 'POST', `/v1/notes/${id}/comments`, {
    body: { body: 'Noted.', threadId: comment.json.threadId },
  });
  await p.call(
    'List comments: `GET /v1/notes/{noteId}/comments`',
    'GET',
    `/v1/notes/${id}/comments?sort=asc&limit=10`,
  );
  await p.call(
    'Read one: `GET /v1/notes/{noteId}/comments/{commentId}`',
    'GET',
    `/v1/notes/${id}/comments/${cid}`,
  );
  await p.call(
    'Edit it: `PATCH /v1/notes/{noteId}/comments/{commentId}`',
    'PATCH',
    `/v1/notes/${id}/comments/${cid}`,
    {
      body: { body: 'Oat milk, please (1 l).' },
    },
  );
  await p.call(
    'Resolve the thread: `PUT /v1/notes/{noteId}/comments/{commentId}/resolution`',
    'PUT',
    `/v1/notes/${id}/comments/${cid}/resolution`,
  );
  await p.call(
    'Reopen it: `DELETE /v1/notes/{noteId}/comments/{commentId}/resolution`',
    'DELETE',
    `/v1/notes/${id}/comments/${cid}/resolution`,
  );
  await p.call(
    'Delete a comment: `DELETE /v1/notes/{noteId}/comments/{commentId}`',
    'DELETE',
    `/v1/notes/${id}/comments/${cid}`,
  );

  p.text('### Folders');
  const home = await p.call('Create a folder: `POST /v1/folders`', 'POST', '/v1/folders', {
    body: { name: `Home ${ctx.run}`, icon: '1F3E0', color: '#4caf50' },
  });
  const fid = home.json.id;
  const inner = await p.call('A folder inside it', 'POST', '/v1/folders', {
    body: { name: 'Recipes', parentFolderId: fid },
  });
  const innerId = inner.json.id;
  await p.call('List folders: `GET /v1/folders`', 'GET', '/v1/folders');
  await p.call('Read one: `GET /v1/folders/{folderId}`', 'GET', `/v1/folders/${fid}`);
  await p.call('Rename or move it: `PATCH /v1/folders/{folderId}`', 'PATCH', `/v1/folders/${innerId}`, {
    body: { name: 'Cooking', color: '#ff9800' },
  });
  const order = await p.call(
    'The order of folders: `GET /v1/folders/folder-order`',
    'GET',
    '/v1/folders/folder-order',
  );
  const root: string[] = order.json.root ?? [];
  await p.call('Reorder: `PUT /v1/folders/folder-order`', 'PUT', '/v1/folders/folder-order', {
    body: { order: { root: [fid, ...root.filter((f) => f !== fid)] } },
  });
  await p.call('File the note in a folder (`parentFolderId`)', 'PATCH', `/v1/notes/${id}`, {
    body: { parentFolderId: innerId },
  });
  await p.call("A folder's notes: `GET /v1/notes?folderId=`", 'GET', `/v1/notes?folderId=${innerId}`);
  await p.call('A folder that holds something cannot be deleted', 'DELETE', `/v1/folders/${innerId}`);
  await p.call('Move the note back to the top level', 'PATCH', `/v1/notes/${id}`, {
    body: { parentFolderId: '' },
  });
  await p.call('Delete an empty folder: `DELETE /v1/folders/{folderId}`', 'DELETE', `/v1/folders/${innerId}`);

  p.text('### Trash');
  await p.call(
    'Delete a note (it goes to the trash): `DELETE /v1/notes/{noteId}`',
    'DELETE',
    `/v1/notes/${id}`,
  );
  await p.call('The trash: `GET /v1/trash`', 'GET', '/v1/trash');
  await p.call('Restore one: `PUT /v1/trash/{noteId}/restore`', 'PUT', `/v1/trash/${id}/restore`);
  const draft = await p.call('(another note, deleted)', 'POST', '/v1/notes', {
    body: { content: '# Draft' },
  });
  await p.call('(delete it)', 'DELETE', `/v1/notes/${draft.json.id}`);
  await p.call('Restore several: `PUT /v1/trash/batch-restore`', 'PUT', '/v1/trash/batch-restore', {
    body: { noteIds: [draft.json.id] },
  });

  const team = `/v1/teams/${ctx.team}`;
  p.text('### Team notes, folders and trash');
  p.text(
    `The team routes take the team's path (\`${ctx.team}\` in the demo data; \`GET /v1/teams\` lists ` +
      `yours) and answer as the personal ones; any member may read and write the team's notes.`,
  );
  const tnote = await p.call(
    'Create a team note: `POST /v1/teams/{teamPath}/notes`',
    'POST',
    `${team}/notes`,
    {
      body: { title: 'Sprint 12', content: '# Sprint 12\n\nGoals: ship the docs.\n' },
    },
  );
  const tid = tnote.json.id;
  await p.call("The team's notes: `GET /v1/teams/{teamPath}/notes`", 'GET', `${team}/notes`);
  await p.call('Read one: `GET /v1/teams/{teamPath}/notes/{noteId}`', 'GET', `${team}/notes/${tid}`);
  await p.call(
    'Edit it live: `POST /v1/teams/{teamPath}/notes/{noteId}/live`',
    'POST',
    `${team}/notes/${tid}/live`,
  );
  await p.call('Change it: `PATCH /v1/teams/{teamPath}/notes/{noteId}`', 'PATCH', `${team}/notes/${tid}`, {
    body: { tags: ['sprint'], content: '# Sprint 12\n\nGoals: ship the docs. Done.\n' },
  });
  const tfolder = await p.call(
    'Create a team folder: `POST /v1/teams/{teamPath}/folders`',
    'POST',
    `${team}/folders`,
    {
      body: { name: `Sprints ${ctx.run}` },
    },
  );
  const tfid = tfolder.json.id;
  await p.call("The team's folders: `GET /v1/teams/{teamPath}/folders`", 'GET', `${team}/folders`);
  await p.call('Read one: `GET /v1/teams/{teamPath}/folders/{folderId}`', 'GET', `${team}/folders/${tfid}`);
  await p.call(
    'Change it: `PATCH /v1/teams/{teamPath}/folders/{folderId}`',
    'PATCH',
    `${team}/folders/${tfid}`,
    {
      body: { description: 'One note per sprint' },
    },
  );
  const torder = await p.call(
    'Their order: `GET /v1/teams/{teamPath}/folders/folder-order`',
    'GET',
    `${team}/folders/folder-order`,
  );
  const troot: string[] = torder.json.root ?? [];
  await p.call(
    'Reorder: `PUT /v1/teams/{teamPath}/folders/folder-order`',
    'PUT',
    `${team}/folders/folder-order`,
    {
      body: { order: { root: [...troot].reverse() } },
    },
  );
  await p.call(
    'Delete it: `DELETE /v1/teams/{teamPath}/folders/{folderId}`',
    'DELETE',
    `${team}/folders/${tfid}`,
  );
  await p.call(
    'Delete a team note: `DELETE /v1/teams/{teamPath}/notes/{noteId}`',
    'DELETE',
    `${team}/notes/${tid}`,
  );
  await p.call("The team's trash: `GET /v1/teams/{teamPath}/trash`", 'GET', `${team}/trash`);
  await p.call('Restore it (the same route as a personal note)', 'PUT', `/v1/trash/${tid}/restore`);
}
