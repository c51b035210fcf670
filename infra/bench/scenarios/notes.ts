// Notes API routes for npm run bench, each with its DynamoDB request budget from issue 3 (auth
// included). ListTeams has no budget in the issue; it gets the listing budget. Mutating routes
// (DELETE) work on notes made beforehand, one per call.
import type { BenchRequest, BenchRoute, BenchScenarios } from '../types.ts';

/** A 1x1 PNG in a multipart/form-data body with one part named image. */
function imageForm(): { body: Buffer; contentType: string } {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  const boundary = 'bench-notes-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="dot.png"\r\nContent-Type: image/png\r\n\r\n`),
    png, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export const scenarios: BenchScenarios = async (ctx) => {
  const owner = await ctx.newUser('Bench Notes Owner');
  const reader = await ctx.newUser('Bench Notes Reader');
  const team = await ctx.newTeam(owner, [reader]);
  const auth = (token: string, extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${token}`, ...extra });
  const json = (token: string) => auth(token, { 'Content-Type': 'application/json' });

  const make = async (body: unknown, teamPath?: string): Promise<{ id: string; shortId: string }> => {
    const res = await ctx.http('POST', teamPath ? `/v1/teams/${teamPath}/notes` : '/v1/notes', { token: owner.token, body });
    if (res.status !== 200) throw new Error(`bench setup: create note -> ${res.status}`);
    return res.body;
  };
  const shared = await make({ content: '# Shared\nlong-lived', readPermission: 'signed_in' });
  const teamNote = await make({ content: '# Team note' }, team.path);
  for (let i = 0; i < 20; i += 1) await make({ content: `# Note ${i}` });
  const doomed: { id: string }[] = [];
  const doomedTeam: { id: string }[] = [];
  for (let i = 0; i < ctx.iterations; i += 1) {
    doomed.push(await make({ content: 'to delete' }));
    doomedTeam.push(await make({ content: 'to delete' }, team.path));
  }
  await ctx.http('GET', `/v1/notes/${shared.id}`, { token: reader.token });
  const form = imageForm();

  const get = (path: string, token = owner.token): BenchRequest => ({ method: 'GET', path, headers: auth(token) });
  const send = (method: string, path: string, body: unknown): BenchRequest => ({ method, path, headers: json(owner.token), body: JSON.stringify(body) });
  const route = (r: string, budget: number, request: (i: number) => BenchRequest, expectStatus = 200): BenchRoute => ({ route: r, budget, expectStatus, request });
  const teamNotes = `/v1/teams/${team.path}/notes`;

  return [
    route('GET /v1/me', 3, () => get('/v1/me')),
    route('GET /v1/teams', 3, () => get('/v1/teams')),
    route('GET /v1/notes', 3, () => get('/v1/notes')),
    route('POST /v1/notes', 3, (i) => send('POST', '/v1/notes', { content: `# Bench ${i}`, tags: ['bench'] })),
    route('GET /v1/notes/{noteId}', 4, () => get(`/v1/notes/${shared.id}`, reader.token)),
    route('PATCH /v1/notes/{noteId}', 4, (i) => send('PATCH', `/v1/notes/${shared.id}`, { content: `# Shared\nedit ${i}` })),
    route('DELETE /v1/notes/{noteId}', 4, (i) => ({ method: 'DELETE', path: `/v1/notes/${doomed[i % doomed.length].id}`, headers: auth(owner.token) }), 204),
    route('POST /v1/notes/{noteId}/images', 3, () => ({ method: 'POST', path: `/v1/notes/${shared.id}/images`, headers: auth(owner.token, { 'Content-Type': form.contentType }), body: form.body })),
    route('GET /v1/teams/{teamPath}/notes', 3, () => get(teamNotes, reader.token)),
    route('POST /v1/teams/{teamPath}/notes', 3, (i) => send('POST', teamNotes, { content: `# Team bench ${i}` })),
    route('GET /v1/teams/{teamPath}/notes/{noteId}', 4, () => get(`${teamNotes}/${teamNote.shortId}`, reader.token)),
    route('PATCH /v1/teams/{teamPath}/notes/{noteId}', 4, (i) => send('PATCH', `${teamNotes}/${teamNote.id}`, { tags: [`t${i}`] })),
    route('DELETE /v1/teams/{teamPath}/notes/{noteId}', 4, (i) => ({ method: 'DELETE', path: `${teamNotes}/${doomedTeam[i % doomedTeam.length].id}`, headers: auth(owner.token) }), 204),
    route('GET /v1/history', 3, () => get('/v1/history?limit=100')),
  ];
};
