// GET /api/transfers over 500 transfers: every sort, with and without filters and search, paged
// forwards and backwards, returns each matching transfer exactly once and in order, also while new
// transfers are created between pages. Setup writes through the store; pages go through the handler.
import { beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/bank/list-transfers.ts';
import { newTransferId } from '../../lib/bank/ids.ts';
import type { Transfer, TransferRecord } from '../../lib/bank/model.ts';
import { DynamoTransferStore } from '../../lib/bank/adapters/dynamo-transfers.ts';
import { fullTransfers } from '../../lib/bank/wiring.ts';

const bankStore = new DynamoTransferStore();
import { invoke } from '../support/events.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { call, expectError, expectRequests } from './helpers.ts';

const N = 500;
const BASE = 1_700_000_000;
const CURRENCIES = ['eur', 'usd', 'jpy'];
let user: TestUser;
let all: TransferRecord[];

const list = (query: Record<string, string>) =>
  invoke(handler, { method: 'GET', resource: '/api/transfers', query, token: user.token });

type Order = (a: Transfer, b: Transfer) => number;
const byCreated: Order = (a, b) => a.created - b.created || (a.id < b.id ? -1 : 1);
const byAmount: Order = (a, b) => a.amount - b.amount || (a.id < b.id ? -1 : 1);
const ORDERS: Record<string, Order> = {
  created: byCreated,
  '-created': (a, b) => byCreated(b, a),
  amount: byAmount,
  '-amount': (a, b) => byAmount(b, a),
};

/** Pages through with the Link header (next, or prev when going backwards) until there is none. */
async function pageAll(
  query: Record<string, string>,
  opts: { backward?: boolean; between?: () => Promise<void> } = {},
) {
  const seen: Transfer[] = [];
  let params: Record<string, string> = { ...query };
  for (let pages = 0; pages < 200; pages++) {
    const res = await list(params);
    expect(res.status, res.raw).toBe(200);
    seen.push(...(opts.backward ? [...res.body.data].reverse() : res.body.data));
    const rel = opts.backward ? 'prev' : 'next';
    const link = res.headers.link?.split(', ').find((l) => l.endsWith(`rel="${rel}"`));
    if (!link) {
      expect(res.body.has_more).toBe(false);
      return seen;
    }
    params = Object.fromEntries(new URLSearchParams(link.slice(2, link.indexOf('>'))));
    await opts.between?.();
  }
  throw new Error('too many pages');
}

beforeAll(async () => {
  user = await newUser('Lister');
  all = Array.from({ length: N }, (_, i): TransferRecord => {
    const created = BASE + Math.floor(i / 3) * 60; // three transfers share each second: ties by id
    return {
      id: newTransferId(created),
      userId: user.id,
      amount: 100 + ((i * 7919) % 1000) * 10,
      currency: CURRENCIES[i % 3],
      destination: `acct_${i % 5}`,
      description: i % 4 === 0 ? `Invoice ${i} PAID` : null,
      metadata: i % 10 === 0 ? { tag: `Vip-${i}` } : {},
      created,
      updated: created,
      version: 1,
    };
  });
  for (let i = 0; i < N; i += 50)
    await Promise.all(all.slice(i, i + 50).map((t) => bankStore.putTransfer(t, {})));
}, 60_000);

const expected = (order: string, keep: (t: Transfer) => boolean = () => true) =>
  all
    .filter(keep)
    .sort(ORDERS[order])
    .map((t) => t.id);

describe('listing 500 transfers', () => {
  for (const sort of Object.keys(ORDERS)) {
    it(`sort=${sort}: every transfer exactly once, in order, forwards and backwards`, async () => {
      const forward = await pageAll({ sort, limit: '37' });
      expect(forward.map((t) => t.id)).toEqual(expected(sort));
      const lastId = forward.at(-1)!.id;
      // Backwards from the end: everything before the last one.
      const backward = await pageAll({ sort, limit: '41', ending_before: lastId }, { backward: true });
      expect(backward.map((t) => t.id).reverse()).toEqual(expected(sort).slice(0, -1));
    });
  }

  const filters: Array<[string, Record<string, string>, (t: Transfer) => boolean]> = [
    ['currency', { currency: 'USD' }, (t) => t.currency === 'usd'],
    [
      'currency + amount range',
      { currency: 'eur', 'amount[gte]': '3000', 'amount[lt]': '7000' },
      (t) => t.currency === 'eur' && t.amount >= 3000 && t.amount < 7000,
    ],
    [
      'created range',
      { 'created[gt]': String(BASE + 600), 'created[lte]': String(BASE + 6000) },
      (t) => t.created > BASE + 600 && t.created <= BASE + 6000,
    ],
    ['destination', { destination: 'acct_2' }, (t) => t.destination === 'acct_2'],
    [
      'q (description, case-insensitive)',
      { q: 'paid' },
      (t) => (t.description ?? '').toLowerCase().includes('paid'),
    ],
    [
      'nothing matches: bounded scans hand over with has_more and Link',
      { destination: 'nowhere' },
      () => false,
    ],
    [
      'q (metadata value) + currency',
      { q: 'vip', currency: 'eur' },
      (t) => t.currency === 'eur' && Object.values(t.metadata).some((v) => v.toLowerCase().includes('vip')),
    ],
  ];
  for (const [name, query, keep] of filters) {
    it(`filter ${name}: each match exactly once with every sort`, async () => {
      for (const sort of Object.keys(ORDERS)) {
        const seen = await pageAll({ ...query, sort, limit: '25' });
        expect(
          seen.map((t) => t.id),
          sort,
        ).toEqual(expected(sort, keep));
      }
    });
  }

  it('transfers created between pages never shift a page: nothing repeated or skipped', async () => {
    const made: Transfer[] = [];
    const between = async () => {
      made.push(
        await fullTransfers().create(user.id, { amount: 500, currency: 'eur', destination: 'acct_new' }, {}),
      );
    };
    const desc = await pageAll({ limit: '50' }, { between });
    expect(desc.map((t) => t.id)).toEqual(expected('-created'));
    const asc = await pageAll({ sort: 'amount', limit: '50', currency: 'eur' }, { between });
    const ids = asc.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const original = expected('amount', (t) => t.currency === 'eur');
    expect(ids.filter((id) => original.includes(id))).toEqual(original);
    all.push(...made.map((t) => ({ ...t, userId: user.id, version: 1 })));
  });

  it('the default page over HTTP: {object, data, has_more}, Link next, two DynamoDB requests', async () => {
    const res = await call('GET', '/api/transfers', { token: user.token });
    expect(res.body.object).toBe('list');
    expect(res.body.data).toHaveLength(10);
    expect(res.body.has_more).toBe(true);
    expect(res.headers.get('link')).toMatch(/^<\?starting_after=tr_[0-9a-z]+>; rel="next"$/);
    expectRequests(res, 2);
    const byAmountPage = await call('GET', '/api/transfers?sort=amount&currency=usd&limit=5', {
      token: user.token,
    });
    expect(byAmountPage.body.data).toHaveLength(5);
    expectRequests(byAmountPage, 2);
  });

  it('bad parameters are 400 naming each one', async () => {
    expectError(await call('GET', '/api/transfers?color=red&size=2', { token: user.token }), 400, [
      'color',
      'size',
    ]);
    expectError(
      await call('GET', '/api/transfers?limit=0&sort=name&currency=xyz', { token: user.token }),
      400,
      ['limit', 'sort', 'currency'],
    );
    expectError(
      await call('GET', '/api/transfers?limit=101&amount[gte]=-1&created[lt]=soon', { token: user.token }),
      400,
      ['limit', 'amount[gte]', 'created[lt]'],
    );
    const id = all[0].id;
    expectError(
      await call('GET', `/api/transfers?starting_after=${id}&ending_before=${id}`, { token: user.token }),
      400,
      ['starting_after', 'ending_before'],
    );
    expectError(await call('GET', '/api/transfers?starting_after=nope', { token: user.token }), 400, [
      'starting_after',
    ]);
    const stranger = await newUser();
    expectError(
      await call('GET', `/api/transfers?sort=amount&starting_after=${id}`, { token: stranger.token }),
      400,
      ['starting_after'],
    );
  });
});
