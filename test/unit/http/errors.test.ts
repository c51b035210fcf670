import { describe, expect, it } from 'vitest';
import {
  Conflict,
  Invalid,
  KeyInUse,
  LimitReached,
  NotFound,
  StepUpRequired,
  Unauthenticated,
  Unavailable,
} from '../../../lib/domain/errors.ts';
import { toApiError } from '../../../lib/http/errors.ts';
import { restDialect } from '../../../lib/http/rest.ts';
import { statusOrOffline } from '../../../lib/news/http/status.ts';

const rest = (err: unknown) => {
  const { error } = toApiError(err);
  return { status: error.status, headers: error.headers, body: JSON.parse(restDialect.failure(error)) };
};

describe('domain errors in the REST dialect', () => {
  it('maps not found to 404 with its description', () => {
    expect(rest(new NotFound('Transfer x does not exist'))).toMatchObject({
      status: 404,
      body: { code: 40400, message: 'Not found', description: 'Transfer x does not exist' },
    });
  });

  it('maps invalid input to 422 naming the fields', () => {
    const fields = [{ field: 'metadata', message: 'too many' }];
    expect(rest(new Invalid('bad', { fields }))).toMatchObject({ status: 422, body: { errors: fields } });
  });

  it('maps a conflict to 409, and a key in use to the idempotency code', () => {
    expect(rest(new Conflict('x')).body.code).toBe(40900);
    expect(rest(new KeyInUse('x')).body.code).toBe(40901);
  });

  it('maps a step-up to its own 403 code', () => {
    expect(rest(new StepUpRequired('x')).body.code).toBe(40301);
  });

  it('maps a reached limit to 429 with Retry-After and its details in the body', () => {
    const r = rest(new LimitReached('x', 0, { details: { attempts_left: 0 } }));
    expect(r).toMatchObject({ status: 429, headers: { 'Retry-After': '0' }, body: { attempts_left: 0 } });
  });

  it('maps an unavailable dependency to 503 with Retry-After', () => {
    expect(rest(new Unavailable('x', 3))).toMatchObject({ status: 503, headers: { 'Retry-After': '3' } });
  });

  it('asks an unauthenticated caller for a bearer token', () => {
    expect(rest(new Unauthenticated('x')).headers['WWW-Authenticate']).toBe('Bearer realm="api"');
  });

  it('hides an unexpected error as 500', () => {
    expect(toApiError(new Error('boom'))).toMatchObject({ unexpected: true, error: { status: 500 } });
  });

  it("gives the News status route's 503 the offline body", async () => {
    const err = await statusOrOffline(() => Promise.reject(new Unavailable('down', 5))).catch((e) => e);
    expect(err).toMatchObject({
      status: 503,
      extra: { response: { vg: false, uptime: -1 } },
      headers: { 'Retry-After': '5' },
    });
  });
});
