// Property-based fuzzing of every route against the running stack (test/fuzz/fuzz.ts). A bounded
// run here (FUZZ_TIME_MS, default 25 s); `npm run fuzz` runs long. Prints runs and seed; replay a
// failure with FUZZ_SEED=<seed> (and FUZZ_PATH from the report).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fullMfa } from '../../lib/bank/wiring.ts';
import { uniquePhone } from '../bank/helpers.ts';
import { http } from '../support/http.ts';
import { newTeam, newUser } from '../support/identity.ts';
import { check, operations, request, type Fixtures } from './fuzz.ts';

const TIME_MS = Number(process.env.FUZZ_TIME_MS ?? 25_000);
const SEED =
  process.env.FUZZ_SEED === undefined
    ? Date.now() ^ (Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED);
const fixtures: Fixtures = { token: '', ids: {} };

beforeAll(async () => {
  const admin = await newUser('Fuzz Admin', { admin: true });
  const other = await newUser('Fuzz Other');
  const team = await newTeam(admin, [other]);
  const note = await http('POST', '/v1/notes', { token: admin.token, body: { content: 'fuzz' } });
  const teamNote = await http('POST', `/v1/teams/${team.path}/notes`, {
    token: admin.token,
    body: { content: 'fuzz' },
  });
  const version = await http('POST', `/v1/notes/${note.body.id}/versions`, {
    token: admin.token,
    body: { name: 'fuzz' },
  });
  const comment = await http('POST', `/v1/notes/${note.body.id}/comments`, {
    token: admin.token,
    body: { body: 'fuzz', anchor: { offset: 0, length: 2 } },
  });
  const transfer = await http('POST', '/api/transfers', {
    token: admin.token,
    body: { amount: 100, currency: 'usd', destination: 'acct' },
  });
  const { device } = await fullMfa().enroll({ userId: admin.id, kind: 'sms', phone: uniquePhone() });
  const verification = await http('POST', `/api/users/${admin.id}/verifications`, {
    token: admin.token,
    body: { device_id: device.id },
  });
  const hook = await http('POST', '/v1/webhooks', {
    token: admin.token,
    body: { url: 'http://127.0.0.1:9/fuzz', scope: { type: 'workspace' } },
  });
  const teamHook = await http('POST', `/v1/teams/${team.path}/webhooks`, {
    token: admin.token,
    body: { url: 'http://127.0.0.1:9/fuzz', scope: { type: 'workspace' } },
  });
  fixtures.token = admin.token;
  fixtures.ids = {
    noteId: [note.body.id, note.body.shortId, teamNote.body.id],
    teamPath: [team.path],
    transferId: [transfer.body.id],
    userId: [admin.id, other.id],
    deviceId: [device.id],
    verificationId: [verification.body.id],
    hookId: [hook.body.id, teamHook.body.id],
    deliveryId: ['0000000000000000'],
    id: ['1', '2', '9007199254740991'],
    versionId: [version.body.id],
    commentId: [comment.body.id],
  };
}, 60_000);

describe('fuzz', () => {
  it(
    'every route: never a 5xx, every response documented, 2xx writes read back as stored',
    async () => {
      const property = fc.asyncProperty(
        fc.constantFrom(...operations).chain((op) => request(op, fixtures)),
        async (r) => {
          await check(r, fixtures);
        },
      );
      const details = await fc.check(property, {
        seed: SEED,
        numRuns: 1_000_000,
        interruptAfterTimeLimit: TIME_MS,
        markInterruptAsFailure: false,
        path: process.env.FUZZ_PATH,
        endOnFailure: process.env.FUZZ_SHRINK === undefined,
      });
      console.log(
        `[fuzz] ${details.numRuns} runs over ${operations.length} operations, seed ${details.seed}` +
          `${details.failed ? `, FAILED at path ${details.counterexamplePath}` : ''}`,
      );
      if (details.failed)
        throw new Error(`${(details.errorInstance as Error)?.message}\n${fc.defaultReportMessage(details)}`);
      expect(details.numRuns).toBeGreaterThan(0);
    },
    TIME_MS + 60_000,
  );
});
