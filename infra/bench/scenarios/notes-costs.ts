// What the Notes routes whose cost grows with a note's size bill, at 20 B, 4 KiB and 20 KiB of
// markdown: reads (personal and team), content and tags-only updates, creates, deletes of a note
// two users have read. Write-unit targets: a read records a visit whatever the note's size (5);
// an update, create or delete writes the note once (content, metadata, its index entries, a
// version of the content, the history entry), so its target grows with the content. The content
// is billed once (its own PutItem, outside the transaction: docs/notes.md, "Data"): the create and
// content-change targets are one unit over what that measured, so billing it twice again fails.
import type { BenchRequest, BenchRoute, BenchScenarios } from '../types.ts';

// Read units: no more than these routes read before the write paths were brought down (the
// figures the bench measured then), per size: GET personal and team, PATCH content and tags, DELETE.
// A content change reads both content slots of the note (up to 1 unit more at 20 KiB).
const SIZES = [
  { label: '20 B', bytes: 20, content: 12, create: 9, remove: 15, reads: [1, 1.5, 2.5, 1.5, 1] },
  { label: '4 KiB', bytes: 4096, content: 13, create: 10, remove: 15, reads: [2, 2.5, 3.5, 2.5, 2] },
  { label: '20 KiB', bytes: 20480, content: 17, create: 14, remove: 35, reads: [6, 6.5, 7.5, 6.5, 6] },
];
/** Read units of a create (the Idempotency-Key-free create reads nothing but the caller's token). */
const CREATE_READS = 0.5;
/** Most write units of a note read, of a tags-only update. */
const READ_WRITES = 5;
const TAGS_WRITES = 8;

/**
 * `bytes` of markdown (ASCII), different for each `seed`: words drawn from a vocabulary by a seeded
 * generator, with headings, emphasis and links, so that it compresses about as much as prose does
 * (2-3×, as the version bodies are stored compressed) rather than as a repeated sentence would.
 */
export function markdown(bytes: number, seed: string | number): string {
  const words = (
    'note team draft review meeting agenda deploy table index query write read cost unit price ' +
    'lambda gateway region bucket stream event webhook history folder trash version comment ' +
    'markdown heading list link image code block quote summary detail action owner reader'
  ).split(' ');
  let state = [...String(seed)].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261) >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  let out = `# Note ${seed}\n`;
  while (out.length < bytes) {
    const r = next() % 40;
    const word = `${words[next() % words.length]}${next() % 100}`;
    out +=
      r === 0
        ? `\n\n## ${word}\n`
        : r === 1
          ? ` *${word}*`
          : r === 2
            ? ` [${word}](https://example.com/${next()})`
            : ` ${word}`;
  }
  return out.slice(0, bytes);
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
    [writeUnits, readUnits]: [number, number],
    request: BenchRoute['request'],
    expectStatus = 200,
  ): BenchRoute => ({ route, label, budget, writeUnits, readUnits, expectStatus, request });

  const rows: BenchRoute[] = [];
  for (const size of SIZES) {
    const note = await make(markdown(size.bytes, 'read'));
    const teamNote = await make(markdown(size.bytes, 'team read'), team.path);
    const edited = await make(markdown(size.bytes, 'edit'));
    for (const r of readers) await ctx.http('GET', `/v1/notes/${note.id}`, { token: r.token });
    const label = (what: string) => `${size.label}${what ? `, ${what}` : ''}`;
    rows.push(
      row('GET /v1/notes/{noteId}', label('reader'), 4, [READ_WRITES, size.reads[0]], () =>
        send('GET', `/v1/notes/${note.id}`, readers[0].token),
      ),
      row('GET /v1/teams/{teamPath}/notes/{noteId}', label('member'), 5, [READ_WRITES, size.reads[1]], () =>
        send('GET', `${teamNotes}/${teamNote.id}`, readers[0].token),
      ),
      row(
        'PATCH /v1/notes/{noteId}',
        label('content'),
        7,
        // None of these notes has a live document: a content change reads none (docs/live.md).
        [size.content, size.reads[2]],
        (i) =>
          send('PATCH', `/v1/notes/${edited.id}`, owner.token, {
            content: markdown(size.bytes, `edit ${i}`),
          }),
      ),
      row('PATCH /v1/notes/{noteId}', label('tags only'), 6, [TAGS_WRITES, size.reads[3]], (i) =>
        send('PATCH', `/v1/notes/${edited.id}`, owner.token, { tags: [`t${i}`] }),
      ),
      row('POST /v1/notes', label(''), 4, [size.create, CREATE_READS], (i) =>
        send('POST', '/v1/notes', owner.token, { content: markdown(size.bytes, `create ${i}`) }),
      ),
      row(
        'DELETE /v1/notes/{noteId}',
        label('2 readers'),
        4,
        [size.remove, size.reads[4]],
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
