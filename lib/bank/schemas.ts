// Request and response schemas of the Bank API: they validate input (lib/http/validation.ts turns
// failures into errors naming each field) and generate openapi/bank.json.
import { z } from 'zod';
import { DEVICE_ID, MAX_TRANSFER_SECONDS, TRANSFER_ID } from './ids.ts';
import { FACTOR_KINDS, MAX_AMOUNT, MAX_METADATA_KEYS, MFA_TOKEN_MAX_SECONDS } from './model.ts';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

// Three ASCII letters first: upper-casing folds some other letters to ASCII ("uſd" → "USD").
const currency = z.string()
  .regex(/^[A-Za-z]{3}$/, { error: 'Must be three ASCII letters (an ISO 4217 currency code)', abort: true })
  .refine((c) => CURRENCIES.has(c.toUpperCase()), 'Must be an ISO 4217 currency code')
  .transform((c) => c.toLowerCase());
const destination = z.string().min(1).max(255);
const description = z.string().max(1000).nullable();
// `__proto__` cannot be a key of a stored map (JavaScript objects and the DynamoDB marshaller drop it).
const metadata = z.record(z.string().min(1).max(40).regex(/^[^[\]]*$/, 'Keys must not contain [ or ]')
  .refine((key) => key !== '__proto__', 'The key __proto__ is reserved'), z.string().max(500))
  .refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, `At most ${MAX_METADATA_KEYS} keys`);
const immutable = (name: string) => z.never({ error: `${name} cannot be changed after the transfer is created` }).optional();

export const createTransferBody = z.strictObject({
  amount: z.number().int().min(1).max(MAX_AMOUNT).describe('Minor units (cents); whole units for zero-decimal currencies'),
  currency: currency.describe('ISO 4217 code, any case; returned lower-case'),
  destination,
  description: description.optional(),
  metadata: metadata.optional().describe(
    `At most ${MAX_METADATA_KEYS} keys (<= 40 characters, no [ or ]), string values <= 500 characters; ` +
      'empty values are dropped',
  ),
});

/** PUT: replaces description and metadata; an absent one is cleared. */
export const replaceTransferBody = z.strictObject({
  description: description.optional(),
  metadata: metadata.optional(),
  amount: immutable('amount'), currency: immutable('currency'), destination: immutable('destination'),
});

/** POST: partial update; metadata keys merge, a key set to "" is removed, metadata null clears all. */
export const updateTransferBody = z.strictObject({
  description: description.optional(),
  metadata: metadata.nullable().optional(),
  amount: immutable('amount'), currency: immutable('currency'), destination: immutable('destination'),
});

const integer = (min: number, max: number) =>
  z.string().regex(/^\d{1,12}$/, 'Must be a non-negative integer').transform(Number).pipe(z.number().int().min(min).max(max));
const transferCursor = z.string().regex(TRANSFER_ID, 'Must be a transfer id');
const seconds = integer(0, MAX_TRANSFER_SECONDS);
const amount = integer(0, MAX_AMOUNT);

export const listTransfersQuery = z.strictObject({
  limit: integer(1, 100).optional().describe('1..100, default 10'),
  starting_after: transferCursor.optional().describe('A transfer id: the page after it'),
  ending_before: transferCursor.optional().describe('A transfer id: the page before it'),
  sort: z.enum(['created', '-created', 'amount', '-amount']).optional().describe('Default -created; ties are broken by id'),
  currency: currency.optional(),
  destination: destination.optional().describe('Exact destination'),
  'created[gte]': seconds.optional(), 'created[gt]': seconds.optional(), 'created[lte]': seconds.optional(), 'created[lt]': seconds.optional(),
  'amount[gte]': amount.optional(), 'amount[gt]': amount.optional(), 'amount[lte]': amount.optional(), 'amount[lt]': amount.optional(),
  q: z.string().min(1).max(100).regex(/^\P{Cc}*$/u, 'Must not contain control characters').optional()
    .describe('Case-insensitive substring of description, destination or a metadata value'),
}).superRefine((v, ctx) => {
  if (v.starting_after && v.ending_before) {
    for (const field of ['starting_after', 'ending_before']) ctx.addIssue({ code: 'custom', path: [field], message: 'starting_after and ending_before are mutually exclusive' });
  }
});
export type ListTransfersQuery = z.output<typeof listTransfersQuery>;

export const transferPath = z.object({ transferId: z.string() });
export const userPath = z.object({ userId: z.string() });
export const devicePath = z.object({ userId: z.string(), deviceId: z.string() });
export const verificationPath = z.object({ userId: z.string(), verificationId: z.string() });

export const startVerificationBody = z.strictObject({ device_id: z.string().regex(DEVICE_ID, 'Must be a device id') });

export const verifyBody = z.strictObject({
  code: z.string().regex(/^\d{6}$/, 'Must be 6 digits').optional(),
  mfa_token: z.string().min(1).max(200).optional(),
}).superRefine((v, ctx) => {
  if ((v.code === undefined) === (v.mfa_token === undefined)) {
    for (const field of ['code', 'mfa_token']) ctx.addIssue({ code: 'custom', path: [field], message: 'Send exactly one of code and mfa_token' });
  }
});

/** Optional: no body means the defaults. */
export const mfaTokenBody = z.strictObject({
  expires_in: z.number().int().min(1).max(MFA_TOKEN_MAX_SECONDS).optional().describe(`Seconds, default and maximum ${MFA_TOKEN_MAX_SECONDS}`),
  reusable: z.boolean().optional().describe('Default false: the token works once'),
}).optional();

// ---- responses ------------------------------------------------------------------------------
export const transferSchema = z.object({
  id: z.string().regex(TRANSFER_ID),
  amount: z.number().int(),
  currency: z.string(),
  destination: z.string(),
  description: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  created: z.number().int().describe('Unix seconds'),
  updated: z.number().int().describe('Unix seconds'),
});

export const transferListSchema = z.object({ object: z.literal('list'), data: z.array(transferSchema), has_more: z.boolean() });

export const deviceSchema = z.object({
  id: z.string().regex(DEVICE_ID),
  kind: z.enum(FACTOR_KINDS),
  name: z.string(),
  default: z.boolean(),
  created: z.number().int(),
  last_used: z.number().int().nullable(),
});

export const verificationSchema = z.object({
  id: z.string(),
  device_id: z.string(),
  status: z.enum(['pending', 'approved', 'max_attempts_reached']),
  expires_at: z.number().int().describe('Unix seconds'),
});

export const approvedSchema = z.object({ id: z.string(), status: z.literal('approved') });

export const mfaTokenSchema = z.object({ mfa_token: z.string(), expires_at: z.number().int(), reusable: z.boolean() });
