// What a client gets for a bad body or parameter, through the valibot helpers every schema is built
// from (lib/domain/schema.ts): zod 4's English wording the API always answered, every missing and
// unknown key at once, no array taken for an object, the keys valibot never reads.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { schema as outputJsonSchema } from '../../../infra/openapi/build.ts';
import { coercedNumber, object, partial, record, strictObject } from '../../../lib/domain/schema.ts';
import { parseWith } from '../../../lib/http/validation.ts';
import { refusal } from '../../support/validation.ts';

const body = strictObject({
  title: v.pipe(v.string(), v.maxLength(5)),
  tags: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.maxLength(2))),
  role: v.optional(v.picklist(['owner', 'guest'])),
  count: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(9))),
});

describe('request validation', () => {
  it('words length, bounds, options and types as the API always did', () => {
    expect(refusal(body, { title: 'too long', tags: ['', 'a', 'b'], role: 'x', count: 10 })).toEqual({
      status: 422,
      fields: [
        { field: 'title', message: 'Too big: expected string to have <=5 characters' },
        { field: 'tags.0', message: 'Too small: expected string to have >=1 characters' },
        { field: 'tags', message: 'Too big: expected array to have <=2 items' },
        { field: 'role', message: 'Invalid option: expected one of "owner"|"guest"' },
        { field: 'count', message: 'Too big: expected number to be <=9' },
      ],
    });
    expect(refusal(body, { title: 5 }).fields).toEqual([
      { field: 'title', message: 'Invalid input: expected string, received number' },
    ]);
  });

  it('names a missing key by what it expects', () => {
    expect(refusal(body, {}).fields).toEqual([
      { field: 'title', message: 'Invalid input: expected string, received undefined' },
    ]);
  });

  it('names every unknown key, with the other problems', () => {
    expect(refusal(body, { title: 'long title', a: 1, b: 2 }).fields).toEqual([
      { field: 'title', message: 'Too big: expected string to have <=5 characters' },
      { field: 'a', message: 'Unknown field' },
      { field: 'b', message: 'Unknown field' },
    ]);
  });

  it('refuses the keys valibot never reads when they are unknown', () => {
    const hostile = JSON.parse('{"title":"ok","__proto__":1,"constructor":2}');
    expect(refusal(body, hostile).fields).toEqual([
      { field: '__proto__', message: 'Unknown field' },
      { field: 'constructor', message: 'Unknown field' },
    ]);
  });

  it('takes no array for an object or a record', () => {
    expect(refusal(body, ['a']).fields).toEqual([
      { field: 'body', message: 'Invalid input: expected object, received array' },
    ]);
    const meta = strictObject({ meta: record(v.string(), v.string()) });
    expect(refusal(meta, { meta: ['x'] }).fields).toEqual([
      { field: 'meta', message: 'Invalid input: expected record, received array' },
    ]);
  });

  it('keeps a record key named constructor, as a map it is', () => {
    const meta = strictObject({ meta: record(v.string(), v.string()) });
    const parsed = parseWith(meta, JSON.parse('{"meta":{"constructor":"x","a":"b"}}'), 'body');
    expect(Object.entries(parsed.meta)).toEqual([
      ['a', 'b'],
      ['constructor', 'x'],
    ]);
  });

  it('answers 400 naming the parameters of a path or query', () => {
    const query = object({ limit: v.optional(v.pipe(coercedNumber(), v.minValue(1))) });
    expect(parseWith(query, { limit: '2' }, 'query')).toEqual({ limit: 2 });
    expect(refusal(query, { limit: 'abc' }, 'query')).toEqual({
      status: 400,
      fields: [{ field: 'limit', message: 'Invalid input: expected number, received NaN' }],
    });
    expect(refusal(query, { limit: '1e999' }, 'query').fields).toEqual([
      { field: 'limit', message: 'Invalid input: expected number, received Infinity' },
    ]);
  });

  it('documents a strict object as closed and an optional entry as not required', () => {
    expect(outputJsonSchema(strictObject(partial({ a: v.string() })))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: false,
    });
  });
});
