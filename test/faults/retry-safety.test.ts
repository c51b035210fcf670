// Retrying is safe: a create whose write committed but whose answer was lost (a
// timeout after the commit: 503) replays its response for the same Idempotency-Key, and exactly
// one resource exists. Bank transfers and Notes creates (personal and team), in this process, with
// an SDK middleware that loses the answer of the committing write once: the TransactWriteItems of a
// Notes create; for a transfer, its PutItem or the key's completion after it (two writes, no
// transaction: lib/bank/adapters/dynamo-transfers.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as createTransfer } from '../../functions/bank/create-transfer.ts';
import { handler as listTransfers } from '../../functions/bank/list-transfers.ts';
import { handler as createNote } from '../../functions/notes/create-note.ts';
import { handler as createTeamNote } from '../../functions/notes/create-team-note.ts';
import { handler as listNotes } from '../../functions/notes/list-notes.ts';
import { handler as listTeamNotes } from '../../functions/notes/list-team-notes.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { invoke, type EventInput } from '../support/events.ts';
import { newTeam, newUser } from '../support/identity.ts';

/** Which write's answer is lost next: a command name, and for a PutItem the written item's type. */
let loseNextCommit: false | { command: string; type?: string } = false;
const typeOf = (input: { Item?: { type?: unknown } }) => {
  const type = input.Item?.type as string | { S?: string } | undefined;
  return typeof type === 'object' ? type?.S : type;
};
beforeAll(() => {
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const lose = loseNextCommit;
      if (
        lose &&
        (context as { commandName?: string }).commandName === lose.command &&
        (lose.type === undefined || typeOf(args.input as never) === lose.type)
      ) {
        loseNextCommit = false;
        throw Object.assign(new Error('the answer was lost after the commit'), { name: 'TimeoutError' });
      }
      return result;
    },
    { step: 'initialize', priority: 'low', name: 'loseCommitAnswer' },
  );
});
afterAll(() => {
  documentClient().middlewareStack.remove('loseCommitAnswer');
});

type Handler = Parameters<typeof invoke>[0];

/** The first call commits but answers 503; the retry answers what the commit wrote, and so does every later call. */
async function commitBehindTimeout(
  handler: Handler,
  input: EventInput,
  lose: { command: string; type?: string } = { command: 'TransactWriteItemsCommand' },
) {
  const headers = { 'Idempotency-Key': randomUUID() };
  loseNextCommit = lose;
  const first = await invoke(handler, { ...input, headers });
  expect(first.status, first.raw).toBe(503);
  expect(Number(first.headers['retry-after'])).toBeGreaterThan(0);
  const retry = await invoke(handler, { ...input, headers });
  // A lost answer of the resource's own write (the key not completed yet): the retry completes it
  // with the resource the first attempt wrote; any later call replays that answer.
  if (lose.type === undefined) expect(retry.headers['idempotent-replayed']).toBe('true');
  const again = await invoke(handler, { ...input, headers });
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toEqual(retry.body);
  return retry;
}

describe('a create that committed behind a timeout', () => {
  for (const [what, lose] of [
    ['the transfer', { command: 'PutItemCommand', type: 'transfer' }],
    ["the key's completion", { command: 'UpdateItemCommand' }],
  ] as const) {
    it(`Bank, the answer of ${what} lost: the retry with the same key answers the 201; one transfer exists`, async () => {
      const u = await newUser();
      const body = { amount: 4200, currency: 'eur', destination: 'acct_retry' };
      const retry = await commitBehindTimeout(
        createTransfer,
        { method: 'POST', resource: '/api/transfers', token: u.token, body },
        lose,
      );
      expect(retry.status).toBe(201);
      expect(retry.body).toMatchObject(body);
      expect(retry.headers.location).toBe(`/api/transfers/${retry.body.id}`);
      const list = await invoke(listTransfers, { method: 'GET', resource: '/api/transfers', token: u.token });
      expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([retry.body.id]);
    });
  }

  it('Notes: personal and team creates replay the created note; one note exists', async () => {
    const u = await newUser();
    const team = await newTeam(u);
    const personal = await commitBehindTimeout(createNote, {
      method: 'POST',
      resource: '/v1/notes',
      token: u.token,
      body: { title: 'Once', content: '# Once' },
    });
    expect(personal.status).toBe(200);
    expect(personal.body).toMatchObject({ title: 'Once', content: '# Once' });
    expect(personal.headers.etag).toBeDefined();
    const mine = await invoke(listNotes, { method: 'GET', resource: '/v1/notes', token: u.token });
    expect(mine.body.map((n: { id: string }) => n.id)).toEqual([personal.body.id]);

    const teamNote = await commitBehindTimeout(createTeamNote, {
      method: 'POST',
      resource: '/v1/teams/{teamPath}/notes',
      pathParameters: { teamPath: team.path },
      token: u.token,
      body: { content: 'team' },
    });
    expect(teamNote.status).toBe(200);
    const theirs = await invoke(listTeamNotes, {
      method: 'GET',
      resource: '/v1/teams/{teamPath}/notes',
      pathParameters: { teamPath: team.path },
      token: u.token,
    });
    expect(theirs.body.map((n: { id: string }) => n.id)).toEqual([teamNote.body.id]);
  });

  it('Notes: another body under the same key is 409; no key behaves as before', async () => {
    const u = await newUser();
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await invoke(createNote, {
      method: 'POST',
      resource: '/v1/notes',
      token: u.token,
      body: { content: 'a' },
      headers,
    });
    expect(first.status).toBe(200);
    const other = await invoke(createNote, {
      method: 'POST',
      resource: '/v1/notes',
      token: u.token,
      body: { content: 'b' },
      headers,
    });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 40901 });
    const plain = await invoke(createNote, {
      method: 'POST',
      resource: '/v1/notes',
      token: u.token,
      body: { content: 'a' },
    });
    expect(plain.status).toBe(200);
    expect(plain.body.id).not.toBe(first.body.id);
    const tooLong = await invoke(createNote, {
      method: 'POST',
      resource: '/v1/notes',
      token: u.token,
      body: 'x',
      headers: { 'Idempotency-Key': 'k'.repeat(256) },
    });
    expect(tooLong.status).toBe(400);
  });
});
