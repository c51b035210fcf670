// What the Bank handlers share on the HTTP side: the Idempotency-Key wrapper, the step-up header,
// the security log, the listing's query and Link header, and conditional GET of a transfer.
import { isNotModified as notModifiedSince } from '../../http/conditional.ts';
import type { Origin } from '../../domain/idempotency.ts';
import { idempotent as idempotentRequest } from '../../http/idempotency.ts';
import type { HttpRequest, HttpResult } from '../../http/rest.ts';
import { seal, unseal } from '../../domain/seal.ts';
import { sha256 } from '../crypto.ts';
import type { Transfer } from '../model.ts';
import type { ListTransfersQuery } from '../schemas.ts';
import type { Complete } from '../step-up.ts';
import type { Bounds, ListParams, TransferPage } from '../transfers.ts';
import { idempotencyKeys } from '../wiring.ts';

/**
 * Runs `work` under the request's Idempotency-Key, if it has one (lib/http/idempotency.ts): a
 * retry replays the stored response; `work` gets the key's origin (lib/domain/idempotency.ts). `seal`: the response carries a secret (an mfa_token) and is
 * stored encrypted under this key (the wiring's `sealingKey`, passed by the one operation that
 * needs it, so no other function bundles a Secrets Manager read).
 */
export async function idempotent<T>(
  req: HttpRequest,
  respond: (result: T) => HttpResult,
  work: (complete: Complete<T>, origin?: Origin) => Promise<T>,
  opts: { seal?: () => Promise<string> } = {},
): Promise<HttpResult> {
  const key = opts.seal ? await opts.seal() : undefined;
  const sealer =
    key === undefined
      ? undefined
      : { seal: (s: string) => seal(s, key), open: (s: string) => unseal(s, key) };
  return idempotentRequest(req, { keys: idempotencyKeys(), sealer }, respond, work);
}

/** The X-MFA-Verification header (a verification id), if sent. */
export const stepUpHeader = (req: HttpRequest) => req.headers['x-mfa-verification'];

/** Security events (lib/bank/http/security-log.ts). */
export { securityLog } from './security-log.ts';

const bounds = (q: ListTransfersQuery, field: 'created' | 'amount'): Bounds => ({
  gte: q[`${field}[gte]`],
  gt: q[`${field}[gt]`],
  lte: q[`${field}[lte]`],
  lt: q[`${field}[lt]`],
});

/** The listing's query string (Stripe's bracketed range keys) as the domain's parameters. */
export const listParams = (q: ListTransfersQuery): ListParams => ({
  sort: q.sort,
  limit: q.limit,
  starting_after: q.starting_after,
  ending_before: q.ending_before,
  currency: q.currency,
  destination: q.destination,
  created: bounds(q, 'created'),
  amount: bounds(q, 'amount'),
  q: q.q,
});

/** RFC 8288 Link header: relative references that keep the other query parameters. */
export function pageLinks(req: HttpRequest, page: TransferPage): Record<string, string> {
  const base = Object.entries(req.event.queryStringParameters ?? {}).filter(
    ([k]) => k !== 'starting_after' && k !== 'ending_before',
  ) as [string, string][];
  const link = (cursor: Record<string, string>, rel: string) =>
    `<?${new URLSearchParams([...base, ...Object.entries(cursor)]).toString()}>; rel="${rel}"`;
  const links = [page.next && link(page.next, 'next'), page.prev && link(page.prev, 'prev')].filter(Boolean);
  return links.length ? { Link: links.join(', ') } : {};
}

/** Validators of a transfer: a strong ETag of its representation, and its update time. */
export const cacheHeaders = (t: Transfer): Record<string, string> => ({
  ETag: `"${sha256(JSON.stringify(t)).slice(0, 32)}"`,
  'Last-Modified': new Date(t.updated * 1000).toUTCString(),
});

/** RFC 9110 conditional GET of a transfer. */
export const isNotModified = (req: HttpRequest, headers: Record<string, string>, updated: number): boolean =>
  notModifiedSince(req.headers, headers.ETag, updated * 1000);
