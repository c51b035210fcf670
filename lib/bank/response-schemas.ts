// Response schemas of the Bank API: infra/openapi/bank.ts generates openapi/bank.json from them (and
// the tests check responses against it). No function imports this module, so no cold start builds them.
import * as z from 'zod/mini';
import { DEVICE_ID, TRANSFER_ID } from './ids.ts';
import { FACTOR_KINDS } from './model.ts';

export const transferSchema = z.object({
  id: z.string().check(z.regex(TRANSFER_ID)),
  amount: z.number().check(z.int()),
  currency: z.string(),
  destination: z.string(),
  description: z.nullable(z.string()),
  metadata: z.record(z.string(), z.string()),
  created: z.number().check(z.int(), z.describe('Unix seconds')),
  updated: z.number().check(z.int(), z.describe('Unix seconds')),
});

export const transferListSchema = z.object({
  object: z.literal('list'),
  data: z.array(transferSchema),
  has_more: z.boolean(),
});

export const deviceSchema = z.object({
  id: z.string().check(z.regex(DEVICE_ID)),
  kind: z.enum(FACTOR_KINDS),
  name: z.string(),
  default: z.boolean(),
  created: z.number().check(z.int()),
  last_used: z.nullable(z.number().check(z.int())),
});

export const verificationSchema = z.object({
  id: z.string(),
  device_id: z.string(),
  status: z.enum(['pending', 'approved', 'max_attempts_reached']),
  expires_at: z.number().check(z.int(), z.describe('Unix seconds')),
});

export const approvedSchema = z.object({ id: z.string(), status: z.literal('approved') });

export const mfaTokenSchema = z.object({
  mfa_token: z.string(),
  expires_at: z.number().check(z.int()),
  reusable: z.boolean(),
});
