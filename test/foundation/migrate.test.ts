// `npm run admin -- migrate` on a table of the first layout: notes of 20 B, 4 KiB and 20 KiB,
// history, folders, trash, versions, comments, webhooks, transfers and MFA factors are made through
// the API, put back into the first layout (test/support/first-layout.ts), and every API answer
// after the migration equals the answer before it. The run is stopped half-way and resumed, and a
// second run changes nothing. A migration goes over every item of its table: this file works on a
// table of its own with a runner of its own (test/support/own-table.ts), so it rewrites no other
// test's notes while they are being written, and its scans do not slow the shared runner's.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../infra/admin/program.ts';
import { migrate } from '../../infra/admin/migrate/run.ts';
import type { MigrationStep } from '../../infra/admin/migrate/step.ts';
import { STEPS } from '../../infra/admin/migrate/steps/index.ts';
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/data/dynamo.ts';
import { INDEXES, notesKeys } from '../../lib/data/keys.ts';
import { enroll, call as bankCall } from '../bank/helpers.ts';
import { call, createNote } from '../notes/helpers.ts';
import { firstLayoutLeft, toFirstLayout, tokensInIndex } from '../support/first-layout.ts';
import { newTeam, newUser, type TestUser } from '../support/identity.ts';
import { OwnTable } from '../support/own-table.ts';
import { local } from '../notes/helpers.ts';

const table = new OwnTable('migrate');
beforeAll(async () => {
  if (!local) return;
  await table.create();
  const runner = await table.start('migrate');
  // The API helpers call this file's runner from now on (its functions use this file's table).
  process.env.TEST_BASE_URL = runner.url;
  process.env.LOCAL_RUNNER_URL = runner.url;
}, 300_000);
afterAll(async () => {
  if (local) await table.drop();
});

const markdown = (bytes: number) =>
  `# Sized\n\n${'lorem ipsum '.repeat(Math.ceil(bytes / 12))}`.slice(0, bytes);

/** Every read route a user of this data relies on, in a fixed order, answered as status + body. */
async function answers(a: TestUser, b: TestUser, ids: Record<string, string>, teamPath: string) {
  const notes = (path: string, token = a.token) => call('GET', path, { token });
  const bank = (path: string) => bankCall('GET', path, { token: a.token });
  const paths: Array<[string, () => ReturnType<typeof call>]> = [
    ['history a', () => notes('/v1/history')],
    ['history b', () => notes('/v1/history', b.token)],
    ['me', () => notes('/v1/me')],
    ['notes', () => notes('/v1/notes')],
    ['team notes', () => notes(`/v1/teams/${teamPath}/notes`)],
    ['folder notes', () => notes(`/v1/notes?folderId=${ids.folder}`)],
    ['folders', () => notes('/v1/folders')],
    ['trash', () => notes('/v1/trash')],
    ['versions', () => notes(`/v1/notes/${ids.large}/versions`)],
    ['comments', () => notes(`/v1/notes/${ids.small}/comments`)],
    ['webhooks', () => notes('/v1/webhooks')],
    ['webhook', () => notes(`/v1/webhooks/${ids.hook}`)],
    ['transfers by time', () => bank('/api/transfers')],
    ['transfers by amount', () => bank('/api/transfers?sort=-amount')],
    ['eur by time', () => bank('/api/transfers?currency=eur&sort=created')],
    ['eur by amount', () => bank('/api/transfers?currency=eur&sort=amount')],
    ['transfer', () => bank(`/api/transfers/${ids.transfer}`)],
    ['devices', () => bank(`/api/users/${a.id}/devices`)],
    // Note reads last: each one moves its reader's history entry (the same order every time).
    ['note 20 B', () => notes(`/v1/notes/${ids.small}`)],
    ['note 4 KiB', () => notes(`/v1/notes/${ids.medium}`)],
    ['note 20 KiB', () => notes(`/v1/notes/${ids.large}`, b.token)],
    ['team note', () => notes(`/v1/teams/${teamPath}/notes/${ids.team}`)],
  ];
  const out: Record<string, unknown> = {};
  for (const [name, get] of paths) {
    const res = await get();
    expect(res.status, `${name}: ${res.text}`).toBe(200);
    out[name] = res.body;
  }
  return out;
}

/** Runs `npm run admin -- migrate …` in process against the test table; returns its JSON output. */
async function adminMigrate(...args: string[]): Promise<any> {
  let out = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const program = buildProgram().exitOverride();
    for (const command of program.commands) command.exitOverride();
    await program.parseAsync(['node', 'admin', '--table', process.env.TABLE_NAME!, 'migrate', ...args]);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  return JSON.parse(out);
}

describe.skipIf(!local)('npm run admin -- migrate', () => {
  it('brings a first-layout table to the current one: resumable, idempotent, every answer unchanged', async () => {
    const [a, b] = await Promise.all([newUser('Owner'), newUser('Reader')]);
    const team = await newTeam(a, [b]);
    const readable = { readPermission: 'signed_in' };
    const small = await createNote(a.token, { content: markdown(20), ...readable });
    const medium = await createNote(a.token, { content: markdown(4096), ...readable });
    const large = await createNote(a.token, { content: markdown(20 * 1024), ...readable });
    const teamNote = await createNote(a.token, { content: markdown(4096) }, team.path);
    const gone = await createNote(a.token, { content: 'to the trash' });
    const folder = (await call('POST', '/v1/folders', { token: a.token, body: { name: 'Filed' } })).body;
    await call('PATCH', `/v1/notes/${medium.id}`, { token: a.token, body: { parentFolderId: folder.id } });
    await call('PATCH', `/v1/notes/${large.id}`, { token: a.token, body: { content: markdown(20_000) } });
    await call('POST', `/v1/notes/${large.id}/versions`, { token: a.token, body: { name: 'kept' } });
    await call('POST', `/v1/notes/${small.id}/comments`, { token: b.token, body: { body: 'Looks right' } });
    expect((await call('DELETE', `/v1/notes/${gone.id}`, { token: a.token })).status).toBe(204);
    const transfers = [];
    for (const [amount, currency] of [
      [500, 'EUR'],
      [120, 'USD'],
      [9000, 'EUR'],
    ] as const) {
      const res = await bankCall('POST', '/api/transfers', {
        token: a.token,
        body: { amount, currency, destination: 'acct_123', description: `${amount} ${currency}` },
      });
      expect(res.status, res.text).toBe(201);
      transfers.push(res.body);
    }
    await enroll(a, 'otp');
    const hook = await call('POST', '/v1/webhooks', {
      token: a.token,
      body: { url: 'http://127.0.0.1:9/hook', scope: { type: 'workspace' } },
    });
    expect(hook.status, hook.text).toBe(201);
    const ids = {
      small: small.id,
      medium: medium.id,
      large: large.id,
      team: teamNote.id,
      folder: folder.id,
      hook: hook.body.id,
      transfer: transfers[0].id,
    };
    // Once, so each reader's history holds every note it reads below, in the order it reads them.
    await answers(a, b, ids, team.path);

    const shortIds = [small, medium, large, teamNote, gone].map((n) => n.shortId);
    const aged = await toFirstLayout([a, b], shortIds);
    expect(await tokensInIndex(a.id, INDEXES.GSI1.name)).toBe(1); // the first layout, really
    const before = await answers(a, b, ids, team.path);
    // Reading the notes above wrote their readers' history entries anew (today's layout): what is left.
    const due = await firstLayoutLeft([a, b], shortIds);
    expect(due.length).toBeGreaterThan(2 + shortIds.length);
    expect(due.length).toBeLessThanOrEqual(aged);

    // Stopped after one page of a small page size, then resumed from its checkpoints.
    const stopped = await migrate({ steps: STEPS, segments: 2, pageSize: 20, maxPages: 1, restart: true });
    expect(stopped.at(-1)?.complete).toBe(false);
    const resumed = await adminMigrate('--segments', '2', '--page-size', '20');
    expect(resumed.every((r: { complete: boolean }) => r.complete)).toBe(true);
    const written = (r: Array<{ written: number }>) => r.reduce((n, s) => n + s.written, 0);
    // Every aged item was brought back, exactly once across the two runs (a scan visits each item once).
    expect(await firstLayoutLeft([a, b], shortIds), due.join('\n')).toEqual([]);
    expect(written(stopped) + written(resumed), JSON.stringify({ due, stopped, resumed })).toBe(due.length);
    expect(await tokensInIndex(a.id, INDEXES.GSI1.name)).toBe(0);
    expect(await tokensInIndex(b.id, INDEXES.GSI1.name)).toBe(0);

    // A finished run resumes to nothing; a full rescan finds nothing left to write.
    expect(written(await adminMigrate())).toBe(0);
    expect(written(await adminMigrate('--restart'))).toBe(0);

    expect(await answers(a, b, ids, team.path)).toEqual(before);
    // The trashed note kept its trash mark on its new counter item, and its owner can restore it.
    const { Item: counter } = await documentClient().send(
      new GetCommand({ TableName: process.env.TABLE_NAME, Key: notesKeys.noteVisits(gone.shortId) }),
    );
    expect(counter?.deletedAt).toEqual(expect.any(Number));
    const restored = await call('PUT', `/v1/trash/${gone.id}/restore`, { token: a.token });
    expect(restored.status, restored.text).toBeLessThan(300);
    expect((await call('GET', `/v1/notes/${gone.id}`, { token: a.token })).body.content).toBe('to the trash');
  }, 600_000);

  it('counts every write when its segments write in parallel', async () => {
    // A step of this test alone: it marks 40 items of its own (one write each), 4 segments at once.
    const run = randomUUID();
    const TableName = process.env.TABLE_NAME;
    for (let i = 0; i < 40; i += 1)
      await documentClient().send(
        new PutCommand({ TableName, Item: { PK: `MIGRATE-TEST#${run}#${i}`, SK: 'ITEM', type: 'test' } }),
      );
    const mark: MigrationStep = {
      name: `test-mark-${run}`,
      describe: 'marks the items of one test run',
      migrate: (item) =>
        String(item.PK).startsWith(`MIGRATE-TEST#${run}#`) && item.marked === undefined
          ? [{ update: { key: { PK: String(item.PK), SK: String(item.SK) }, set: { marked: true } } }]
          : [],
    };
    const [report] = await migrate({ steps: [mark], segments: 4, pageSize: 5, restart: true });
    expect(report).toMatchObject({ complete: true, written: 40 });
    expect((await migrate({ steps: [mark], segments: 4, pageSize: 5, restart: true }))[0].written).toBe(0);
  });

  it('lists its steps', async () => {
    expect(await adminMigrate('--list')).toEqual(STEPS.map((s) => ({ step: s.name, describe: s.describe })));
  });
});
