// Full-text search (GET /v1/search, an extension) through the runner: the index is fed by the
// table's stream (the runner's stream poller runs the indexer function), and access is checked
// when a search answers. Two users and two teams: each finds what they may read, and nothing else.
import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../../lib/data/dynamo.ts';
import { identityKeys } from '../../lib/data/keys.ts';
import { fold } from '../../lib/notes/search/text.ts';
import { newTeam, newUser, type TestUser } from '../support/identity.ts';
import { call, createNote, expectBudget } from './helpers.ts';

/** The stream's lag on the local stack, as the requirement bounds it. */
const FRESH_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const search = async (token: string, params: Record<string, string>) => {
  const res = await call('GET', `/v1/search?${new URLSearchParams(params)}`, { token });
  return res;
};
const ids = (res: { body: any }) => (res.body.results as { id: string }[]).map((r) => r.id).sort();

/** Searches until `done` holds (at most FRESH_MS); returns the last answer and how long it took. */
async function searchUntil(token: string, params: Record<string, string>, done: (ids: string[]) => boolean) {
  const started = Date.now();
  for (;;) {
    const res = await search(token, params);
    expect(res.status, res.text).toBe(200);
    if (done(ids(res)) || Date.now() - started > FRESH_MS) return { res, ms: Date.now() - started };
    await sleep(200);
  }
}

describe('GET /v1/search', () => {
  let ann: TestUser;
  let bob: TestUser;
  let both: { path: string };
  let annOnly: { path: string };
  const word = `zq${randomUUID().slice(0, 6)}`; // a word no other test writes: every note here has it
  const notes: Record<string, Record<string, any>> = {};

  beforeAll(async () => {
    ann = await newUser('Ann');
    bob = await newUser('Bob');
    both = await newTeam(ann, [bob]);
    annOnly = await newTeam(ann);
    notes.annPersonal = await createNote(ann.token, {
      content: `# Résumé of the cluster\n\nHow we run **kubernetes** in production. ${word}\n\nSee [the runbook](https://intranet.example/hidden-target).`,
    });
    notes.bobShared = await createNote(bob.token, {
      content: `# Bob's plan\n\nKubernetes upgrade plan, open to every signed-in user. ${word}`,
      readPermission: 'signed_in',
    });
    notes.teamBoth = await createNote(
      ann.token,
      {
        content: `# 团队笔记\n\n我们今天学习全文搜索。 ${word}\n\n###### tags: \`infra\``,
        readPermission: 'owner',
      },
      both.path,
    );
    notes.teamAnn = await createNote(
      ann.token,
      { content: `# Quarterly kubernetes review\n\nThe deployment went well. ${word}` },
      annOnly.path,
    );
    const all = Object.values(notes).map((n) => n.id);
    // Wait for the indexer: Ann's three workspaces and Bob's.
    await searchUntil(ann.token, { q: word }, (found) => found.length === 3);
    await searchUntil(bob.token, { q: word }, (found) => found.length === 2);
    expect(all).toHaveLength(4);
  });

  it("finds every note the caller may read — own and their teams' — and no other", async () => {
    const mine = await search(ann.token, { q: word });
    expect(ids(mine)).toEqual([notes.annPersonal.id, notes.teamBoth.id, notes.teamAnn.id].sort());
    // Auth, the caller's teams, the segments' heads, the hits (one BatchGetItem): the index is in S3.
    expectBudget(mine, 4);
    // Bob's note is readable by any signed-in user, but it is not in Ann's workspaces: never a hit.
    expect(ids(await search(bob.token, { q: word }))).toEqual([notes.bobShared.id, notes.teamBoth.id].sort());
    // Nor is anything of a team Bob is not in, even by its exact words.
    expect(ids(await search(bob.token, { q: `quarterly ${word}` }))).toEqual([]);
  });

  it('folds accents, segments Chinese, matches a prefix and one typo, ranks title first, skips markdown syntax', async () => {
    const q = (s: string) => search(ann.token, { q: `${word} ${s}` }).then(ids);
    expect(await q('resume')).toEqual([notes.annPersonal.id]);
    expect(await search(ann.token, { q: '全文搜索' }).then(ids)).toContain(notes.teamBoth.id);
    expect(await q('搜索')).toEqual([notes.teamBoth.id]);
    expect(await q('quarter')).toEqual([notes.teamAnn.id]); // prefix of the last word
    expect(await q('kubernetis')).toEqual([notes.annPersonal.id, notes.teamAnn.id].sort()); // one letter wrong
    expect(await q('hidden')).toEqual([]); // a link target is not text
    expect(await q('runbook')).toEqual([notes.annPersonal.id]); // a link's text is
    // "kubernetes" in a title ranks above "kubernetes" in a body.
    const ranked = (await search(ann.token, { q: `kubernetes ${word}` })).body.results.map((r: any) => r.id);
    expect(ranked[0]).toBe(notes.teamAnn.id);
  });

  it('matches a quoted phrase as a phrase', async () => {
    expect(ids(await search(ann.token, { q: `"deployment went well" ${word}` }))).toEqual([notes.teamAnn.id]);
    expect(ids(await search(ann.token, { q: `"well went deployment" ${word}` }))).toEqual([]);
  });

  it('answers a snippet with the matched words as offsets', async () => {
    const res = await search(ann.token, { q: `${word} kubernetes` });
    const hit = res.body.results.find((r: any) => r.id === notes.annPersonal.id);
    expect(hit.snippet.text).not.toContain('**');
    const marked = hit.snippet.highlights.map((h: any) =>
      fold(hit.snippet.text.slice(h.offset, h.offset + h.length)),
    );
    expect(marked).toEqual(['kubernetes', word]);
    expect(hit).toMatchObject({ shortId: notes.annPersonal.shortId, teamPath: null });
  });

  it('filters by team and tag, and pages', async () => {
    expect(ids(await search(ann.token, { q: word, team: both.path }))).toEqual([notes.teamBoth.id]);
    expect(ids(await search(ann.token, { q: word, tag: 'infra' }))).toEqual([notes.teamBoth.id]);
    const first = await search(ann.token, { q: word, limit: '2' });
    const second = await search(ann.token, { q: word, limit: '2', page: '2' });
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3, hasNext: true });
    expect(second.body.pagination).toMatchObject({ page: 2, hasNext: false });
    expect([...ids(first), ...ids(second)].sort()).toEqual(ids(await search(ann.token, { q: word })));
  });

  it('bad input is a 4xx in the Notes dialect; a pathological query answers', async () => {
    const bad: Record<string, string>[] = [
      { q: '' },
      { q: '   ' },
      { q: 'x'.repeat(257) },
      { q: word, limit: 'many' },
      { q: word, limit: '0' },
      { q: word, page: '0' },
      { q: word, team: 'no such team!' },
      { q: '*** ??? ---' },
    ];
    for (const params of bad) {
      const res = await search(ann.token, params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body).toMatchObject({ code: 40000 });
    }
    expect((await search(ann.token, { q: word, team: `t-${randomUUID().slice(0, 12)}` })).status).toBe(404);
    expect((await search(bob.token, { q: word, team: annOnly.path })).status).toBe(403);
    const wild = Array.from({ length: 64 }, (_, i) => `${'ab'.repeat(1 + (i % 3))}*`).join(' ');
    const res = await search(ann.token, { q: wild.slice(0, 256) });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([]);
  });

  it('finds an edit within 5 s; drops a trashed note and a left team at once', async () => {
    const fresh = `fresh${randomUUID().slice(0, 6)}`;
    await call('PATCH', `/v1/notes/${notes.annPersonal.id}`, {
      token: ann.token,
      body: { content: `# Résumé of the cluster\n\n${fresh} ${word}` },
    });
    const { res, ms } = await searchUntil(ann.token, { q: fresh }, (found) => found.length === 1);
    expect(ids(res), `found after ${ms} ms`).toEqual([notes.annPersonal.id]);

    // Trashed: gone from the very next search (the index may still hold it).
    expect((await call('DELETE', `/v1/notes/${notes.annPersonal.id}`, { token: ann.token })).status).toBe(
      204,
    );
    expect(ids(await search(ann.token, { q: word }))).not.toContain(notes.annPersonal.id);

    // Bob leaves the team (its membership items removed): the team's note leaves his results at once.
    for (const Key of [
      identityKeys.membershipOfUser(bob.id, both.path),
      identityKeys.membershipOfTeam(both.path, bob.id),
    ])
      await documentClient().send(new DeleteCommand({ TableName: process.env.TABLE_NAME, Key }));
    expect(ids(await search(bob.token, { q: word }))).toEqual([notes.bobShared.id]);
  });
});
