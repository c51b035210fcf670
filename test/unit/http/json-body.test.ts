// The JSON body's walk (lib/http/json-body.ts): iterative, so depth never reaches the call stack;
// `__proto__` is the one refused key; fields are named in document order.
import { describe, expect, it } from 'vitest';
import { hostileFields, MAX_JSON_DEPTH, parseJson } from '../../../lib/http/json-body.ts';

const nested = (n: number) => parseJson(`${'['.repeat(n)}${']'.repeat(n)}`, false);

describe('the JSON body walk', () => {
  it('names the first value nested too deep, at any depth, without overflowing the stack', () => {
    for (const n of [MAX_JSON_DEPTH + 1, 10_000, 1_000_000]) {
      const fields = hostileFields(nested(n));
      expect(fields).toHaveLength(1);
      expect(fields[0].field).toBe(Array.from({ length: MAX_JSON_DEPTH }, () => '0').join('.'));
      expect(fields[0].message).toMatch(/deeper than 64 levels/);
    }
    expect(hostileFields(nested(MAX_JSON_DEPTH))).toEqual([]);
    expect(hostileFields({ a: { b: nested(MAX_JSON_DEPTH - 2) } })).toEqual([]);
    expect(hostileFields({ a: { b: nested(MAX_JSON_DEPTH - 1) } })).toHaveLength(1);
  });

  it('refuses __proto__ only: constructor and prototype are ordinary keys', () => {
    const body = parseJson(
      '{"m":{"constructor":"x","prototype":"y","__proto__":"z"},"l":[{"__proto__":1}],"s":"\\ud800"}',
      false,
    );
    expect(hostileFields(body)).toEqual([
      { field: 'm.__proto__', message: 'The key __proto__ is not allowed' },
      { field: 'l.0.__proto__', message: 'The key __proto__ is not allowed' },
      { field: 's', message: expect.stringMatching(/unpaired UTF-16 surrogate/) },
    ]);
    expect(hostileFields({ constructor: { prototype: 'x' } })).toEqual([]);
  });

  it('parses base64 bodies, and names malformed JSON', () => {
    expect(parseJson(Buffer.from('{"a":1}').toString('base64'), true)).toEqual({ a: 1 });
    expect(() => parseJson('{', false)).toThrow(/not valid JSON/);
    expect(() => parseJson(undefined, false)).toThrow(/not valid JSON/);
  });
});
