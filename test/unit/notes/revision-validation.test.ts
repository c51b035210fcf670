// What the versions, comments and webhook routes answer to bad numbers and bodies (valibot schemas
// with the wording the API always had), and how their query integers are documented.
import { describe, expect, it } from 'vitest';
import { inputSchema } from '../../../infra/openapi/build.ts';
import { parseWith } from '../../../lib/http/validation.ts';
import { refusal } from '../../support/validation.ts';
import {
  commentsQuery,
  createCommentBody,
  updateVersionBody,
  versionsQuery,
} from '../../../lib/notes/revisions/schemas.ts';
import { deliveriesQuery, webhookCreation } from '../../../lib/notes/webhooks/schemas.ts';

describe('query integers (page, limit)', () => {
  it('read the string as a number: "2" is 2, "2.0" is 2', () => {
    expect(parseWith(versionsQuery, { page: '2', limit: '2.0' }, 'query')).toEqual({ page: 2, limit: 2 });
    expect(parseWith(deliveriesQuery, { page: '1e2' }, 'query')).toEqual({ page: 100 });
  });

  it('refuse Infinity as no number, a fraction as no integer (and nothing else), each bound with its limit', () => {
    expect(refusal(commentsQuery, { limit: 'Infinity' }, 'query')).toEqual({
      status: 400,
      fields: [{ field: 'limit', message: 'Invalid input: expected number, received Infinity' }],
    });
    expect(refusal(deliveriesQuery, { page: '-Infinity', limit: '1.5' }, 'query').fields).toEqual([
      { field: 'page', message: 'Invalid input: expected number, received -Infinity' },
      { field: 'limit', message: 'Invalid input: expected int, received number' },
    ]);
    // A fraction is named once: no bound after it.
    expect(refusal(versionsQuery, { page: '0.5' }, 'query').fields).toEqual([
      { field: 'page', message: 'Invalid input: expected int, received number' },
    ]);
    expect(refusal(versionsQuery, { page: '1e20', limit: '101' }, 'query').fields).toEqual([
      { field: 'page', message: 'Too big: expected int to be <=9007199254740991' },
      { field: 'limit', message: 'Too big: expected number to be <=100' },
    ]);
  });

  it('are documented as the integers they must be (not as the strings they arrive as)', () => {
    const props = (s: Parameters<typeof inputSchema>[0]) =>
      (inputSchema(s) as { properties: object }).properties;
    expect(props(versionsQuery)).toMatchObject({
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
    });
    expect(props(commentsQuery)).toMatchObject({ limit: { type: 'integer', minimum: 1, maximum: 100 } });
  });
});

describe('bodies', () => {
  it('an anchor of 1e999 (Infinity once parsed) or beyond 2^53 is named, with the other fields (an unknown one is ignored)', () => {
    expect(
      refusal(createCommentBody, { anchor: { offset: Infinity, length: 2 ** 53 }, x: 1 }, 'body'),
    ).toEqual({
      status: 422,
      fields: [
        { field: 'body', message: 'Invalid input: expected string, received undefined' },
        { field: 'anchor.offset', message: 'Invalid input: expected number, received Infinity' },
        { field: 'anchor.length', message: 'Too big: expected int to be <=9007199254740991' },
      ],
    });
  });

  it('renaming a version needs a name or a description', () => {
    expect(refusal(updateVersionBody, { base: `version:${'0'.repeat(36)}` }, 'body').fields).toEqual([
      { field: 'name', message: 'send name, description or both' },
    ]);
  });

  it('a webhook without a scope says the scope is invalid', () => {
    expect(refusal(webhookCreation, { url: 'https://example.com/hook' }, 'body').fields).toEqual([
      { field: 'scope', message: 'Invalid input' },
    ]);
  });
});
