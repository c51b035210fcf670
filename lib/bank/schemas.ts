// Request schemas of the Bank's transfer routes: they validate input (lib/http/validation.ts turns
// failures into errors naming each field). Paths are in params.ts, the MFA bodies in mfa-schemas.ts,
// responses in response-schemas.ts (which no function bundles); openapi/bank.json is generated from
// all of them.
import * as z from 'zod/mini';
import { MAX_TRANSFER_SECONDS, TRANSFER_ID } from './ids.ts';
import { MAX_AMOUNT, MAX_METADATA_KEYS } from './model.ts';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

// Three ASCII letters first: upper-casing folds some other letters to ASCII ("uſd" → "USD").
const currency = z.pipe(
  z.string().check(
    z.regex(/^[A-Za-z]{3}$/, {
      error: 'Must be three ASCII letters (an ISO 4217 currency code)',
      abort: true,
    }),
    z.refine((c) => CURRENCIES.has(c.toUpperCase()), 'Must be an ISO 4217 currency code'),
  ),
  z.transform((c: string) => c.toLowerCase()),
);
const destination = z.string().check(z.minLength(1), z.maxLength(255));
const description = z.nullable(z.string().check(z.maxLength(1000)));
// `__proto__` cannot be a key of a stored map (JavaScript objects and the DynamoDB marshaller drop it).
const metadataKey = z.string().check(
  z.minLength(1),
  z.maxLength(40),
  z.regex(/^[^[\]]*$/, 'Keys must not contain [ or ]'),
  z.refine((key) => key !== '__proto__', 'The key __proto__ is reserved'),
);
const metadata = z
  .record(metadataKey, z.string().check(z.maxLength(500)))
  .check(z.refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, `At most ${MAX_METADATA_KEYS} keys`));
const immutable = (name: string) =>
  z.optional(z.never({ error: `${name} cannot be changed after the transfer is created` }));

export const createTransferBody = z.strictObject({
  amount: z
    .number()
    .check(
      z.int(),
      z.gte(1),
      z.lte(MAX_AMOUNT),
      z.describe('Minor units (cents); whole units for zero-decimal currencies'),
    ),
  currency: currency.check(z.describe('ISO 4217 code, any case; returned lower-case')),
  destination,
  description: z.optional(description),
  metadata: z
    .optional(metadata)
    .check(
      z.describe(
        `At most ${MAX_METADATA_KEYS} keys (<= 40 characters, no [ or ]), string values <= 500 characters; ` +
          'empty values are dropped',
      ),
    ),
});

/** PUT: replaces description and metadata; an absent one is cleared. */
export const replaceTransferBody = z.strictObject({
  description: z.optional(description),
  metadata: z.optional(metadata),
  amount: immutable('amount'),
  currency: immutable('currency'),
  destination: immutable('destination'),
});

/** POST: partial update; metadata keys merge, a key set to "" is removed, metadata null clears all. */
export const updateTransferBody = z.strictObject({
  description: z.optional(description),
  metadata: z.optional(z.nullable(metadata)),
  amount: immutable('amount'),
  currency: immutable('currency'),
  destination: immutable('destination'),
});

const integer = (min: number, max: number) =>
  z.pipe(
    z.pipe(z.string().check(z.regex(/^\d{1,12}$/, 'Must be a non-negative integer')), z.transform(Number)),
    z.number().check(z.int(), z.gte(min), z.lte(max)),
  );
const transferCursor = z.string().check(z.regex(TRANSFER_ID, 'Must be a transfer id'));
const seconds = integer(0, MAX_TRANSFER_SECONDS);
const amount = integer(0, MAX_AMOUNT);

export const listTransfersQuery = z
  .strictObject({
    limit: z.optional(integer(1, 100)).check(z.describe('1..100, default 10')),
    starting_after: z.optional(transferCursor).check(z.describe('A transfer id: the page after it')),
    ending_before: z.optional(transferCursor).check(z.describe('A transfer id: the page before it')),
    sort: z
      .optional(z.enum(['created', '-created', 'amount', '-amount']))
      .check(z.describe('Default -created; ties are broken by id')),
    currency: z.optional(currency),
    destination: z.optional(destination).check(z.describe('Exact destination')),
    'created[gte]': z.optional(seconds),
    'created[gt]': z.optional(seconds),
    'created[lte]': z.optional(seconds),
    'created[lt]': z.optional(seconds),
    'amount[gte]': z.optional(amount),
    'amount[gt]': z.optional(amount),
    'amount[lte]': z.optional(amount),
    'amount[lt]': z.optional(amount),
    q: z
      .optional(
        z
          .string()
          .check(
            z.minLength(1),
            z.maxLength(100),
            z.regex(/^\P{Cc}*$/u, 'Must not contain control characters'),
          ),
      )
      .check(z.describe('Case-insensitive substring of description, destination or a metadata value')),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.starting_after && v.ending_before) {
        for (const field of ['starting_after', 'ending_before'])
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: 'starting_after and ending_before are mutually exclusive',
          });
      }
    }),
  );
export type ListTransfersQuery = z.output<typeof listTransfersQuery>;
