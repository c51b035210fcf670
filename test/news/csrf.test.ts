// GET /api/internal/v1/csrf: a token only for the internal edge (Origin, Host, Key all correct and
// no browser fetch metadata); everything else is the unknown-route 404. Tokens verify without a
// database; tampered or expired ones do not.
import { describe, expect, it } from 'vitest';
import {
  CSRF_TOKEN_LIFETIME,
  issueCsrfToken,
  isInternalRequest,
  verifyCsrfToken,
} from '../../lib/news/csrf.ts';
import { http } from '../support/http.ts';
import { expectDocumented } from '../support/openapi.ts';
import { rawGet } from './http.ts';

const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;
const PATH = '/api/internal/v1/csrf';
const good = () => ({
  Origin: process.env.INTERNAL_EDGE_ORIGIN!,
  Host: process.env.INTERNAL_API_HOST!,
  Key: process.env.INTERNAL_API_KEY!,
});

describe('csrf endpoint', () => {
  it('returns a verifiable token with all three correct headers, at no DynamoDB cost', async () => {
    const res = await rawGet(PATH, good());
    expectDocumented('news', 'GET', PATH, res);
    expect(res.status).toBe(200);
    expect(res.body.error).toBe(false);
    expect(res.body.response).toMatch(/^[A-Za-z0-9_-]+\.[0-9]+\.[A-Za-z0-9_-]+$/);
    expect(verifyCsrfToken(res.body.response, process.env.CSRF_SIGNING_SECRET!)).toBe(true);
    expect(res.headers.get('cache-control'), 'a token is for the one caller: never cached').toBe('no-store');
    if (local) expect(res.headers.get('x-local-dynamo-requests')).toBe('0');
  });

  it('each wrong or missing header, and a browser request, get the unknown-route 404', async () => {
    const unknownRoute = await http('GET', '/api/internal/v1/nothing');
    const h = good();
    const variants: Record<string, Record<string, string>> = {
      'wrong Origin': { ...h, Origin: 'https://evil.example' },
      'wrong Host': { ...h, Host: 'api.example.org' },
      'wrong Key': { ...h, Key: `${h.Key}x` },
      'short Key': { ...h, Key: h.Key.slice(0, 5) },
      'no Origin': { Host: h.Host, Key: h.Key },
      'no Host': { Origin: h.Origin, Key: h.Key, Host: '' },
      'no Key': { Origin: h.Origin, Host: h.Host },
      'browser (Sec-Fetch-Site)': { ...h, 'Sec-Fetch-Site': 'same-origin' },
      'browser (Sec-Fetch-Mode)': { ...h, 'Sec-Fetch-Mode': 'cors' },
    };
    for (const [name, headers] of Object.entries(variants)) {
      const res = await rawGet(PATH, headers);
      expectDocumented('news', 'GET', PATH, res);
      expect(res.status, name).toBe(404);
      expect(res.body, name).toEqual({ error: true, response: 'notFound' });
      expect(res.text, name).toBe(unknownRoute.text);
      if (local) expect(res.headers.get('x-local-dynamo-requests'), name).toBe('0');
    }
    // fetch() always sends Sec-Fetch-Mode and its own Host: a browser-like client.
    expect(await http('GET', PATH, { headers: { Origin: h.Origin, Key: h.Key } })).toMatchObject({
      status: 404,
      body: { error: true, response: 'notFound' },
    });
  });
});

describe('csrf tokens', () => {
  const secret = 'test-secret-0123456789';
  const now = Date.UTC(2026, 0, 1);

  it('verify with the secret until they expire', () => {
    const token = issueCsrfToken(secret, now);
    expect(verifyCsrfToken(token, secret, now)).toBe(true);
    expect(verifyCsrfToken(token, secret, now + (CSRF_TOKEN_LIFETIME - 1) * 1000)).toBe(true);
    expect(verifyCsrfToken(token, secret, now + CSRF_TOKEN_LIFETIME * 1000)).toBe(false);
    expect(issueCsrfToken(secret, now)).not.toBe(token); // random nonce
  });

  it('reject tampering, another secret and garbage', () => {
    const token = issueCsrfToken(secret, now);
    const [nonce, expiry, mac] = token.split('.');
    expect(verifyCsrfToken(`${nonce}.${Number(expiry) + 3600}.${mac}`, secret, now)).toBe(false);
    expect(
      verifyCsrfToken(
        `${nonce.slice(0, -1)}${nonce.endsWith('A') ? 'B' : 'A'}.${expiry}.${mac}`,
        secret,
        now,
      ),
    ).toBe(false);
    expect(
      verifyCsrfToken(`${nonce}.${expiry}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, secret, now),
    ).toBe(false);
    expect(verifyCsrfToken(token, 'another-secret', now)).toBe(false);
    for (const junk of ['', 'a.b.c', `${token}.x`, token.replace(/\./g, '_')])
      expect(verifyCsrfToken(junk, secret, now)).toBe(false);
  });

  it('the header check needs all three values and no fetch metadata', () => {
    const c = { edgeOrigin: 'https://edge', apiHost: 'api.internal', apiKey: 'k'.repeat(32) };
    const h = { origin: 'https://edge', host: 'api.internal', key: 'k'.repeat(32) };
    expect(isInternalRequest(h, c)).toBe(true);
    expect(isInternalRequest({ ...h, key: 'k'.repeat(31) }, c)).toBe(false);
    expect(isInternalRequest({ ...h, origin: undefined }, c)).toBe(false);
    expect(isInternalRequest({ ...h, secFetchSite: 'none' }, c)).toBe(false);
  });
});
