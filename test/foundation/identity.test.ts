// Event-payload tests of GET /v1/me and GET /v1/teams, against DynamoDB Local.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as getMe } from '../../functions/notes/get-me.ts';
import { handler as listTeams } from '../../functions/notes/list-teams.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { identityKeys } from '../../lib/data/keys.ts';
import { fullIdentity } from '../../lib/identity/wiring.ts';
import { hashToken } from '../../lib/identity/tokens.ts';
import { invoke } from '../support/events.ts';
import { newTeam, newUser } from '../support/identity.ts';

const TEAM_KEYS = [
  'createdAt',
  'description',
  'id',
  'logo',
  'name',
  'ownerId',
  'path',
  'upgraded',
  'visibility',
];

describe('GET /v1/me', () => {
  it("returns exactly the Notes interface document's User fields, with the caller's teams", async () => {
    const owner = await newUser('Owner');
    const me = await newUser('Member');
    const team = await newTeam(owner, [me], 'Writers');
    const res = await invoke(getMe, { method: 'GET', resource: '/v1/me', token: me.token });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(Object.keys(res.body).sort()).toEqual([
      'email',
      'id',
      'name',
      'photo',
      'teams',
      'upgraded',
      'userPath',
    ]);
    expect(res.body).toMatchObject({ id: me.id, name: 'Member', userPath: me.userPath, upgraded: false });
    expect(res.body.teams).toHaveLength(1);
    expect(Object.keys(res.body.teams[0]).sort()).toEqual(TEAM_KEYS);
    expect(res.body.teams[0]).toMatchObject({
      id: team.id,
      path: team.path,
      name: 'Writers',
      ownerId: owner.id,
      visibility: 'private',
    });
  });

  it.each([
    ['missing', undefined],
    ['not Bearer', 'Basic abc'],
    ['malformed token', 'Bearer not-a-token'],
    ['unknown token', `Bearer tri_${'A'.repeat(43)}`],
  ])('401 with WWW-Authenticate and the REST error body for a %s credential', async (_name, header) => {
    const res = await invoke(getMe, {
      method: 'GET',
      resource: '/v1/me',
      headers: header ? { Authorization: header } : {},
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({
      code: 40100,
      message: expect.any(String),
      description: expect.any(String),
    });
  });

  it('a revoked token stops working at once', async () => {
    const u = await newUser();
    expect((await invoke(getMe, { method: 'GET', resource: '/v1/me', token: u.token })).status).toBe(200);
    expect(await fullIdentity().revokeToken(u.token)).toBe(true);
    expect((await invoke(getMe, { method: 'GET', resource: '/v1/me', token: u.token })).status).toBe(401);
  });

  it('tokens carry 256 random bits and are stored only as a hash', async () => {
    const u = await newUser();
    expect(Buffer.from(u.token.slice(4), 'base64url')).toHaveLength(32);
    const stored = await documentClient().send(
      new GetCommand({ TableName: process.env.TABLE_NAME, Key: identityKeys.token(hashToken(u.token)) }),
    );
    expect(stored.Item?.userId).toBe(u.id);
    expect(JSON.stringify(stored.Item)).not.toContain(u.token.slice(4));
    // In no index: nothing lists tokens, and the rate-limit counter it carries is never copied.
    expect(Object.keys(stored.Item ?? {}).filter((a) => a.startsWith('GSI'))).toEqual([]);
  });
});

describe('GET /v1/teams', () => {
  it('lists only the teams the caller belongs to, each in the Team shape of the Notes interface document', async () => {
    const a = await newUser('A');
    const b = await newUser('B');
    const shared = await newTeam(a, [b]);
    await newTeam(a);
    const res = await invoke(listTeams, { method: 'GET', resource: '/v1/teams', token: b.token });
    expect(res.status).toBe(200);
    expect(res.body.map((t: { path: string }) => t.path)).toEqual([shared.path]);
    expect(Object.keys(res.body[0]).sort()).toEqual(TEAM_KEYS);
    const mine = await invoke(listTeams, { method: 'GET', resource: '/v1/teams', token: a.token });
    expect(mine.body).toHaveLength(2);
  });

  it('a user with no team gets an empty array', async () => {
    const u = await newUser();
    const res = await invoke(listTeams, { method: 'GET', resource: '/v1/teams', token: u.token });
    expect(res).toMatchObject({ status: 200, body: [] });
  });
});

describe('authentication comes first', () => {
  it('an anonymous request with a malformed body gets 401, not 415 or 422', async () => {
    const { handler: createNote } = await import('../../functions/notes/create-note.ts');
    const malformed = await invoke(createNote, {
      method: 'POST',
      resource: '/v1/notes',
      rawBody: '{not json',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(401);
    const wrongType = await invoke(createNote, {
      method: 'POST',
      resource: '/v1/notes',
      rawBody: 'x',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(wrongType.status).toBe(401);
    expect(wrongType.headers['x-request-id']).toBeTruthy();
    expect(wrongType.headers['access-control-allow-origin']).toBe('*');
  });
});
