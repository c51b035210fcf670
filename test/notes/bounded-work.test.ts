// Requests that could take unbounded work are bounded: comparing versions of a large rewrite,
// listing comments anchored on content that was rewritten since, and deeply nested JSON bodies.
// Each runs while another user polls GET /v1/me, which must keep answering within a second (the
// local runner runs every function in one process, so a request that hogs it delays everyone).
import { describe, expect, it } from 'vitest';
import { COMPARE_MAX_EDIT_LINES } from '../../lib/notes/revisions/compare.ts';
import { http } from '../support/http.ts';
import { newUser, type TestUser } from '../support/identity.ts';
import { busyFactor } from '../support/processes.ts';
import { call, createNote } from './helpers.ts';

/** The slowest of GET /v1/me polled one after another (by `other`) while `work` runs. */
async function besides<T>(
  other: TestUser,
  work: () => Promise<T>,
): Promise<{ result: T; slowest: number; ms: number }> {
  let done = false;
  let slowest = 0;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      const me = await http('GET', '/v1/me', { token: other.token });
      slowest = Math.max(slowest, performance.now() - started);
      expect(me.status).toBe(200);
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, slowest, ms: performance.now() - started };
  } finally {
    done = true;
    await poll;
  }
}

/** `n` distinct lines of about 18 characters each. */
const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag} line ${i} ${(i * 7919) % 10007}\n`).join('');

describe('bounded work', () => {
  it('compares a rewrite of 8,000 unique lines within bounds, and everyone else keeps being answered', async () => {
    const me = await newUser('Rewriter');
    const other = await newUser('Bystander');
    const n = await createNote(me.token, { content: lines(8000, 'before') });
    const named = await call('POST', `/v1/notes/${n.id}/versions`, { token: me.token, body: { name: 'v1' } });
    expect(named.status).toBe(201);
    expect(
      (await call('PATCH', `/v1/notes/${n.id}`, { token: me.token, body: { content: lines(8000, 'after') } }))
        .status,
    ).toBe(200);
    const compare = () =>
      call('GET', `/v1/notes/${n.id}/versions/compare?base=version:${named.body.id}&target=note_content`, {
        token: me.token,
      });
    await http('GET', '/v1/me', { token: other.token }); // both functions loaded before timing
    await call('GET', `/v1/notes/${n.id}/versions/compare?base=note_content&target=note_content`, {
      token: me.token,
    });
    const { result, slowest, ms } = await besides(other, compare);
    console.log(
      `compare of 8,000 rewritten lines: ${Math.round(ms)} ms (${result.status}); /v1/me slowest ${Math.round(slowest)} ms`,
    );
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({
      error_code: 'diff_too_large',
      max_edit_lines: COMPARE_MAX_EDIT_LINES,
    });
    // Within a second (the work five) on a machine with spare cores; on a crowded one the test's
    // own process is as late as the product, so the bounds stretch by busyFactor().
    expect(slowest).toBeLessThan(1000 * busyFactor());
    expect(ms).toBeLessThan(5000 * busyFactor());
  });

  it('lists 100 comments anchored on a 45 KB note after a rewrite of its middle within bounds', async () => {
    const me = await newUser('Anchorer');
    const other = await newUser('Bystander');
    const content = lines(2500, 'orig');
    expect(content.length).toBeGreaterThan(45_000);
    const n = await createNote(me.token, { content });
    for (let i = 0; i < 100; i += 1) {
      const res = await call('POST', `/v1/notes/${n.id}/comments`, {
        token: me.token,
        body: { body: `c${i}`, anchor: { offset: 15_000 + i * 100, length: 40 } },
      });
      expect(res.status).toBe(201);
    }
    const middle = content.slice(10_000, 35_000);
    const rewritten = content.slice(0, 10_000) + lines(middle.length / 18, 'new') + content.slice(35_000);
    expect(
      (await call('PATCH', `/v1/notes/${n.id}`, { token: me.token, body: { content: rewritten } })).status,
    ).toBe(200);
    await http('GET', '/v1/me', { token: other.token });
    const list = () => call('GET', `/v1/notes/${n.id}/comments?limit=100`, { token: me.token });
    const { result, slowest, ms } = await besides(other, list);
    console.log(
      `listing 100 re-anchored comments: ${Math.round(ms)} ms (${result.status}); /v1/me slowest ${Math.round(slowest)} ms`,
    );
    expect(result.status).toBe(200);
    expect(result.body.comments).toHaveLength(100);
    // Within a second (the work five) on a machine with spare cores; on a crowded one the test's
    // own process is as late as the product, so the bounds stretch by busyFactor().
    expect(slowest).toBeLessThan(1000 * busyFactor());
    expect(ms).toBeLessThan(5000 * busyFactor());
  });

  it('refuses JSON nested 10,000 levels deep with a 422 in each dialect, without recursion', async () => {
    const me = await newUser('Nester');
    const other = await newUser('Bystander');
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const bodies = [
      ['/v1/notes', `{"content":"x","noteFeatures":{"a":${deep(10_000)}}}`],
      ['/v1/webhooks', `{"url":"https://example.com/hook","events":${deep(10_000)}}`],
      ['/api/transfers', `{"amount":1,"currency":"usd","destination":"a","metadata":${deep(10_000)}}`],
    ];
    await http('GET', '/v1/me', { token: other.token });
    for (const [path, raw] of bodies) {
      await http('POST', path, {
        token: me.token,
        headers: { 'Content-Type': 'application/json' },
        raw: '{',
      });
      const { result, slowest } = await besides(other, () =>
        http('POST', path, { token: me.token, headers: { 'Content-Type': 'application/json' }, raw }),
      );
      expect(result.status, `${path}: ${result.text.slice(0, 300)}`).toBe(422);
      expect(result.body.code).toBe(42200);
      expect(result.body.errors).toEqual([
        {
          field: expect.stringMatching(/^(noteFeatures\.a|events|metadata)(\.0)+$/),
          message: expect.stringMatching(/deeper than 64/),
        },
      ]);
      expect(slowest).toBeLessThan(1000);
    }
    // The deepest allowed nesting is parsed and validated as usual (here: refused by the schema).
    const allowed = await http('POST', '/v1/notes', {
      token: me.token,
      headers: { 'Content-Type': 'application/json' },
      raw: `{"content":"x","noteFeatures":{"a":${deep(62)}}}`,
    });
    expect(allowed.status).toBe(422);
    expect(allowed.body.errors.map((e: { field: string }) => e.field)).toEqual(['noteFeatures.a']);
    expect(allowed.body.errors[0].message).not.toMatch(/deeper/);
  });
});
