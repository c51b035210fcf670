// Request schemas of the Bank's transfer routes (valibot, lib/domain/schema.ts): they validate input
// (lib/http/validation.ts turns failures into errors naming each field). Paths are in params.ts, the
// MFA bodies in mfa-schemas.ts, responses in response-schemas.ts (which no function bundles);
// openapi/bank.json is generated from all of them.
import * as v from 'valibot';
import { partial, record, strictObject } from '../domain/schema.ts';
import { MAX_TRANSFER_SECONDS, TRANSFER_ID } from './ids.ts';
import { int } from '../domain/schema-numbers.ts';
import { MAX_AMOUNT, MAX_METADATA_KEYS } from './model.ts';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const THREE_LETTERS = /^[A-Za-z]{3}$/;

// Three ASCII letters first: upper-casing folds some other letters to ASCII ("uſd" → "USD"). The
// code is looked up only when it is three letters (one issue per currency, never both). A
// description goes before the transform (the documents describe what a client sends).
const threeLetters = v.regex(THREE_LETTERS, 'Must be three ASCII letters (an ISO 4217 currency code)');
const isoCode = v.check(
  (c: string) => !THREE_LETTERS.test(c) || CURRENCIES.has(c.toUpperCase()),
  'Must be an ISO 4217 currency code',
);
const lowerCase = v.transform((c: string) => c.toLowerCase());
const currency = v.pipe(v.string(), threeLetters, isoCode, lowerCase);
const destination = v.pipe(v.string(), v.minLength(1), v.maxLength(255));
const description = v.nullable(v.pipe(v.string(), v.maxLength(1000)));
// `__proto__` cannot be a key of a stored map (JavaScript objects and the DynamoDB marshaller drop it).
const metadataKey = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(40),
  v.regex(/^[^[\]]*$/, 'Keys must not contain [ or ]'),
  v.check((key) => key !== '__proto__', 'The key __proto__ is reserved'),
);
/** The count is checked when every key is valid and every value a string (as it always was). */
const metadata = v.pipe(
  record(metadataKey, v.pipe(v.string(), v.maxLength(500))),
  v.rawCheck<Record<string, string>>(({ dataset, addIssue }) => {
    if (!dataset.typed || dataset.issues?.some((issue) => issue.path?.[0]?.origin === 'key')) return;
    if (Object.keys(dataset.value).length > MAX_METADATA_KEYS)
      addIssue({ message: `At most ${MAX_METADATA_KEYS} keys` });
  }),
);
const immutable = (name: string) =>
  v.optional(v.never(`${name} cannot be changed after the transfer is created`));
const updatable = {
  description: v.optional(description),
  amount: immutable('amount'),
  currency: immutable('currency'),
  destination: immutable('destination'),
};

export const createTransferBody = strictObject({
  amount: v.pipe(
    int(),
    v.minValue(1),
    v.maxValue(MAX_AMOUNT),
    v.description('Minor units (cents); whole units for zero-decimal currencies'),
  ),
  currency: v.pipe(
    v.string(),
    v.description('ISO 4217 code, any case; returned lower-case'),
    threeLetters,
    isoCode,
    lowerCase,
  ),
  destination,
  description: v.optional(description),
  metadata: v.optional(
    v.pipe(
      metadata,
      v.description(
        `At most ${MAX_METADATA_KEYS} keys (<= 40 characters, no [ or ]), string values <= 500 characters; ` +
          'empty values are dropped',
      ),
    ),
  ),
});

/** PUT: replaces description and metadata; an absent one is cleared. */
export const replaceTransferBody = strictObject({
  description: updatable.description,
  metadata: v.optional(metadata),
  amount: updatable.amount,
  currency: updatable.currency,
  destination: updatable.destination,
});

/** POST: partial update; metadata keys merge, a key set to "" is removed, metadata null clears all. */
export const updateTransferBody = strictObject({
  description: updatable.description,
  metadata: v.optional(v.nullable(metadata)),
  amount: updatable.amount,
  currency: updatable.currency,
  destination: updatable.destination,
});

/** A query string's non-negative integer (at most 12 digits), from min to max. */
const digits = v.regex(/^\d{1,12}$/, 'Must be a non-negative integer');
const wholeNumber = (min: number, max: number) =>
  v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const integer = (min: number, max: number) =>
  v.pipe(v.string(), digits, v.transform(Number), wholeNumber(min, max));
const transferCursor = v.pipe(v.string(), v.regex(TRANSFER_ID, 'Must be a transfer id'));
const seconds = integer(0, MAX_TRANSFER_SECONDS);
const amount = integer(0, MAX_AMOUNT);
const described = <S extends v.GenericSchema>(s: S, text: string) => v.pipe(s, v.description(text));

const listEntries = {
  limit: v.pipe(
    v.string(),
    v.description('1..100, default 10'),
    digits,
    v.transform(Number),
    wholeNumber(1, 100),
  ),
  starting_after: described(transferCursor, 'A transfer id: the page after it'),
  ending_before: described(transferCursor, 'A transfer id: the page before it'),
  sort: described(
    v.picklist(['created', '-created', 'amount', '-amount']),
    'Default -created; ties are broken by id',
  ),
  currency,
  destination: described(destination, 'Exact destination'),
  'created[gte]': seconds,
  'created[gt]': seconds,
  'created[lte]': seconds,
  'created[lt]': seconds,
  'amount[gte]': amount,
  'amount[gt]': amount,
  'amount[lte]': amount,
  'amount[lt]': amount,
  q: described(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(100),
      v.regex(/^\P{Cc}*$/u, 'Must not contain control characters'),
    ),
    'Case-insensitive substring of description, destination or a metadata value',
  ),
};

/** Every listing parameter is optional; both cursors at once name each (unless a value is not a string). */
export const listTransfersQuery = v.pipe(
  strictObject(partial(listEntries)),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const q = dataset.value;
    if (q.starting_after && q.ending_before)
      for (const key of ['starting_after', 'ending_before'] as const)
        addIssue({
          message: 'starting_after and ending_before are mutually exclusive',
          path: [{ type: 'object', origin: 'value', input: q, key, value: q[key] }],
        });
  }),
);
export type ListTransfersQuery = v.InferOutput<typeof listTransfersQuery>;
