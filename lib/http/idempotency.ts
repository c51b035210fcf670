// The Idempotency-Key header on the HTTP side, for any API: runs an operation under the request's
// key (lib/domain/idempotency.ts), replays a stored response (Idempotent-Replayed: true), and
// releases the key when the operation fails. The API gives its keys (and, for responses that
// carry a secret, how to seal them at rest).
import {
  MAX_IDEMPOTENCY_KEY_LENGTH,
  requestFingerprint,
  type Completion,
  type IdempotencyKeys,
  type Origin,
} from '../domain/idempotency.ts';
import { badRequest } from './errors.ts';
import type { HttpRequest, HttpResult } from './types.ts';

/** Encrypts a stored response body that carries a secret; opens it for a replay. */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

export interface IdempotentOptions {
  keys: IdempotencyKeys;
  sealer?: Sealer;
}

/**
 * Runs `work` under the request's Idempotency-Key, if it has one: a retry replays the stored
 * response; `work` gets the completion to write with its result (undefined without a key) and the
 * key's origin (lib/domain/idempotency.ts), from which it may derive the id of what it creates.
 */
export async function idempotent<T>(
  req: HttpRequest,
  opts: IdempotentOptions,
  respond: (result: T) => HttpResult,
  work: (complete: ((result: T) => Completion) | undefined, origin?: Origin) => Promise<T>,
): Promise<HttpResult> {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return respond(await work(undefined));
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    const message = `1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;
    throw badRequest(`The Idempotency-Key header must have ${message}`, [
      { field: 'Idempotency-Key', message },
    ]);
  }
  const fingerprint = requestFingerprint(req.event.httpMethod, req.event.path, req.event.body);
  const held = await opts.keys.reserve(req.principal.userId, key, fingerprint);
  if ('replay' in held) {
    const { status, body, headers } = held.replay;
    return {
      status,
      body: opened(body, opts.sealer),
      headers: { ...headers, 'Idempotent-Replayed': 'true' },
    };
  }
  try {
    const complete = (result: T) => held.reservation.completion(stored(respond(result), opts.sealer));
    return respond(await work(complete, held.reservation.origin));
  } catch (err) {
    await held.reservation.release();
    throw err;
  }
}

const stored = ({ status, body, headers }: HttpResult, sealer?: Sealer) => ({
  status,
  body: sealer ? { sealed: sealer.seal(JSON.stringify(body ?? null)) } : (body ?? null),
  ...(headers ? { headers } : {}),
});

const opened = (body: unknown, sealer?: Sealer) => {
  const sealed = (body as { sealed?: unknown } | null)?.sealed;
  return sealer && typeof sealed === 'string' && Object.keys(body as object).length === 1
    ? JSON.parse(sealer.open(sealed))
    : body;
};
