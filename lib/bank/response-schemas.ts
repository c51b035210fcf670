// Response schemas of the Bank API: infra/openapi/bank.ts generates openapi/bank.json from them (and
// the tests check responses against it). No function imports this module, so no cold start builds them.
// Never parsed at runtime, so valibot's own strictObject (documented `additionalProperties: false`).
import * as v from 'valibot';
import { DEVICE_ID, TRANSFER_ID } from './ids.ts';
import { FACTOR_KINDS } from './model.ts';

/** A string constant; documented with its type beside `const` (some generators need the type). */
const constant = <const T extends string>(value: T) =>
  v.pipe(v.literal(value), v.metadata({ type: 'string' }));
const int = () => v.pipe(v.number(), v.integer());
const unixSeconds = () => v.pipe(v.number(), v.integer(), v.description('Unix seconds'));

export const transferSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(TRANSFER_ID)),
  amount: int(),
  currency: v.string(),
  destination: v.string(),
  description: v.nullable(v.string()),
  metadata: v.record(v.string(), v.string()),
  created: unixSeconds(),
  updated: unixSeconds(),
});

export const transferListSchema = v.strictObject({
  object: constant('list'),
  data: v.array(transferSchema),
  has_more: v.boolean(),
});

export const deviceSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(DEVICE_ID)),
  kind: v.picklist(FACTOR_KINDS),
  name: v.string(),
  default: v.boolean(),
  created: int(),
  last_used: v.nullable(int()),
});

export const verificationSchema = v.strictObject({
  id: v.string(),
  device_id: v.string(),
  status: v.picklist(['pending', 'approved', 'max_attempts_reached']),
  expires_at: unixSeconds(),
});

export const approvedSchema = v.strictObject({ id: v.string(), status: constant('approved') });

export const mfaTokenSchema = v.strictObject({
  mfa_token: v.string(),
  expires_at: int(),
  reusable: v.boolean(),
});
