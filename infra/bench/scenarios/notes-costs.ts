// What the Notes routes whose cost grows with a note's size bill, at 20 B, 4 KiB and 20 KiB of
// markdown: reads (personal and team), content and tags-only updates, creates, deletes of a note
// two users have read. Write-unit targets: a read records a visit whatever the note's size (5);
// an update, create or delete writes the note once (content, metadata, its index entries, a
// version of the content, the history entry), so its target grows with the content.
import type { BenchRequest, BenchRoute, BenchScenarios } from '../types.ts';

const SIZES = [
  { label: '20 B', bytes: 20, content: 15, create: 11, remove: 15 },
  { label: '4 KiB', bytes: 4096, content: 15, create: 11, remove: 15 },
  { label: '20 KiB', bytes: 20480, content: 35, create: 31, remove: 35 },
];
/** Most write units of a note read, of a tags-only update. */
const READ_WRITES = 5;
const TAGS_WRITES = 8;

/** `bytes` of markdown (ASCII), different for each `seed`. */
export function markdown(bytes: number, seed: string | number): string {
  const head = `# Note ${seed}\n`;
  const body = 'Some *markdown* text with a [link](https://example.com) and `code`. '.repeat(
    Math.ceil(bytes / 60) + 1,
  );
  return (head + body).slice(0, bytes);
}

export const costRoutes = async (ctx: Parameters<BenchScenarios>[0]): Promise<BenchRoute[]> => {
  const owner = await ctx.newUser('Bench Cost Owner');
  const readers = [await ctx.newUser('Bench Cost Reader 1'), await ctx.newUser('Bench Cost Reader 2')];
  const team = await ctx.newTeam(owner, [readers[0]]);
  const teamNotes = `/v1/teams/${team.path}/notes`;
  const headers = (token: string) => ({
    Authorization: `Bearer ${token}`,
    'Content-Type': 'application/json',
  });
  const make = async (content: string, teamPath?: string): Promise<{ id: string; shortId: string }> => {
    const res = await ctx.http('POST', teamPath ? `/v1/teams/${teamPath}/notes` : '/v1/notes', {
      token: owner.token,
      body: { content, readPermission: 'signed_in' },
    });
    if (res.status !== 200) throw new Error(`bench setup: create note -> ${res.status}`);
    return res.body;
  };
  const send = (method: string, path: string, token: string, body?: unknown): BenchRequest => ({
    method,
    path,
    headers: headers(token),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const row = (
    route: string,
    label: string,
    budget: number,
    writeUnits: number,
    request: BenchRoute['request'],
    expectStatus = 200,
  ): BenchRoute => ({ route, label, budget, writeUnits, expectStatus, request });

  const rows: BenchRoute[] = [];
  for (const size of SIZES) {
    const note = await make(markdown(size.bytes, 'read'));
    const teamNote = await make(markdown(size.bytes, 'team read'), team.path);
    const edited = await make(markdown(size.bytes, 'edit'));
    for (const r of readers) await ctx.http('GET', `/v1/notes/${note.id}`, { token: r.token });
    const label = (what: string) => `${size.label}${what ? `, ${what}` : ''}`;
    rows.push(
      row('GET /v1/notes/{noteId}', label('reader'), 4, READ_WRITES, () =>
        send('GET', `/v1/notes/${note.id}`, readers[0].token),
      ),
      row('GET /v1/teams/{teamPath}/notes/{noteId}', label('member'), 4, READ_WRITES, () =>
        send('GET', `${teamNotes}/${teamNote.id}`, readers[0].token),
      ),
      row('PATCH /v1/notes/{noteId}', label('content'), 6, size.content, (i) =>
        send('PATCH', `/v1/notes/${edited.id}`, owner.token, { content: markdown(size.bytes, `edit ${i}`) }),
      ),
      row('PATCH /v1/notes/{noteId}', label('tags only'), 6, TAGS_WRITES, (i) =>
        send('PATCH', `/v1/notes/${edited.id}`, owner.token, { tags: [`t${i}`] }),
      ),
      row('POST /v1/notes', label(''), 3, size.create, (i) =>
        send('POST', '/v1/notes', owner.token, { content: markdown(size.bytes, `create ${i}`) }),
      ),
      row(
        'DELETE /v1/notes/{noteId}',
        label('2 readers'),
        4,
        size.remove,
        async (i) => {
          const doomed = await make(markdown(size.bytes, `delete ${i}`));
          for (const r of readers) await ctx.http('GET', `/v1/notes/${doomed.id}`, { token: r.token });
          return send('DELETE', `/v1/notes/${doomed.id}`, owner.token);
        },
        204,
      ),
    );
  }
  return rows;
};
