// Schemas are valibot (docs/validation.md): each check is its own small function, so a bundle holds
// only the checks its schemas use, and building a schema is building a plain object (zod/mini cost
// 5-8 ms of every cold start that loaded it). This module gives them the wording the API has always
// answered in (zod 4's English messages: "Too big: expected string to have <=256 characters"),
// and objects that name every missing and every unknown key at once.
import * as v from 'valibot';

type Issue = v.BaseIssue<unknown>;

/** The name of a value's type, as the messages say it ("number", "array", "null", "NaN"). */
export function typeName(input: unknown): string {
  if (typeof input === 'number')
    return Number.isNaN(input) ? 'NaN' : Number.isFinite(input) ? 'number' : String(input);
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'object') {
    const proto = Object.getPrototypeOf(input);
    if (proto !== Object.prototype && proto !== null && typeof input.constructor === 'function')
      return input.constructor.name;
  }
  return typeof input;
}

/** What a schema expects, named as the messages name it ("string", "object", "int"). */
function expectedName(schema: v.GenericSchema): string {
  const s = schema as v.GenericSchema & { wrapped?: v.GenericSchema; pipe?: readonly { type: string }[] };
  if ((s.type === 'nullable' || s.type === 'optional' || s.type === 'nullish') && s.wrapped)
    return expectedName(s.wrapped);
  if (s.type === 'number' && s.pipe?.some((a) => a.type === 'integer')) return 'int';
  if (s.type.endsWith('object')) return 'object';
  return s.type;
}

const sizing = (input: unknown) =>
  typeof input === 'string'
    ? ['string', 'characters']
    : Array.isArray(input)
      ? ['array', 'items']
      : ['value', 'items'];

/** Valibot lists options as `"a" | "b"`; the messages as `"a"|"b"`. */
const options = (expected: string | null) =>
  (expected ?? '')
    .replace(/^\(|\)$/g, '')
    .split(' | ')
    .join('|');

/** The English message of an issue that has no message of its own. */
export function english(issue: Issue): string {
  const { type, input, requirement, expected } = issue;
  switch (type) {
    case 'max_length':
    case 'min_length':
    case 'length': {
      const [origin, unit] = sizing(input);
      const big = type === 'max_length';
      const adj = type === 'length' ? 'exactly ' : big ? '<=' : '>=';
      const size =
        big || (type === 'length' && (input as string).length > Number(requirement)) ? 'big' : 'small';
      return `Too ${size}: expected ${origin} to have ${adj}${requirement} ${unit}`;
    }
    case 'max_value':
      return `Too big: expected number to be <=${requirement}`;
    case 'lt_value':
      return `Too big: expected number to be <${requirement}`;
    case 'min_value':
      return `Too small: expected number to be >=${requirement}`;
    case 'gt_value':
      return `Too small: expected number to be >${requirement}`;
    case 'integer':
      return `Invalid input: expected int, received number`;
    case 'regex':
      return `Invalid string: must match pattern ${requirement}`;
    case 'picklist':
    case 'enum': {
      const opts = options(expected);
      return opts.includes('|')
        ? `Invalid option: expected one of ${opts}`
        : `Invalid input: expected ${opts}`;
    }
    case 'literal':
    case 'instance':
      return `Invalid input: expected ${expected}${type === 'instance' ? `, received ${typeName(input)}` : ''}`;
    case 'union':
    case 'variant':
      return 'Invalid input';
  }
  if (issue.kind === 'schema')
    return `Invalid input: expected ${type.endsWith('object') ? 'object' : type}, received ${typeName(input)}`;
  return 'Invalid input';
}

/** Parses with the English messages; every issue is collected (not only the first). */
export const safeParse = <S extends v.GenericSchema>(schema: S, value: unknown) =>
  v.safeParse(schema, value, { message: english });

/**
 * The message of an object's own issues: a missing key names what its entry expects
 * ("Invalid input: expected string, received undefined"), as a present key of the wrong type would.
 */
const objectMessage =
  (entries: v.ObjectEntries) =>
  (issue: Issue): string => {
    const key = issue.path?.at(-1)?.key;
    if (issue.input === undefined && typeof key === 'string' && Object.hasOwn(entries, key)) {
      const entry = entries[key] as v.GenericSchema & { message?: unknown };
      if (typeof entry.message === 'string') return entry.message;
      if (entry.type === 'picklist' || entry.type === 'enum' || entry.type === 'literal')
        return english({ ...issue, type: entry.type, expected: (entry as { expects: string }).expects });
      return `Invalid input: expected ${expectedName(entry)}, received undefined`;
    }
    return english(issue);
  };

/** The action that marks an object strict (every unknown key is an issue): `additionalProperties: false`. */
export const STRICT_KEYS = 'strict_keys';

/** Typed as the plain object it validates (the loose object inside keeps no unknown key: they fail). */
type StrictObject<E extends v.ObjectEntries> = v.ObjectSchema<E, undefined>;

/**
 * valibot takes an array for an object or a record (its indexes become keys); the API never did.
 * (The wrapper's `~standard` still validates as the wrapped schema: everything here parses with
 * v.safeParse.)
 */
function noArrays<S extends v.GenericSchema>(schema: S, name: string): S {
  return {
    ...schema,
    '~run'(dataset: v.UnknownDataset, config: v.Config<Issue>) {
      const input = dataset.value;
      if (!Array.isArray(input)) return schema['~run'](dataset, config);
      const issue: Issue = {
        kind: 'schema',
        type: schema.type,
        input,
        expected: schema.expects,
        received: 'Array',
        message: `Invalid input: expected ${name}, received array`,
      };
      return { typed: false, value: input, issues: [...(dataset.issues ?? []), issue] };
    },
  } as S;
}

/** An object whose unknown keys are dropped (path and query parameters, answers, Notes request bodies). */
export const object = <const E extends v.ObjectEntries>(entries: E) =>
  noArrays(v.object(entries, objectMessage(entries)), 'object');

/**
 * valibot's objects and records never read the keys `__proto__`, `constructor` and `prototype` of
 * their input (they drop them silently); zod read `constructor` and `prototype` as any other key.
 */
const UNREAD_KEYS = ['constructor', 'prototype'];
type Dataset = v.OutputDataset<unknown, Issue>;

/**
 * `schema`, with `more` run on its result when the input is an object (not an array): what records
 * and strict objects add to valibot's own parse.
 */
function afterObject<S extends v.GenericSchema>(
  schema: S,
  more: (input: Record<string, unknown>, result: Dataset, config: v.Config<Issue>) => Dataset,
): S {
  return {
    ...schema,
    '~run'(dataset: v.UnknownDataset, config: v.Config<Issue>) {
      const input = dataset.value;
      const result = schema['~run'](dataset, config) as Dataset;
      if (!input || typeof input !== 'object' || Array.isArray(input)) return result;
      return more(input as Record<string, unknown>, result, config);
    },
  } as S;
}

/** A record (string keys); not an array. Its output has no prototype (a user's keys are data). */
export const record = <
  K extends v.GenericSchema<string, string | number | symbol>,
  V extends v.GenericSchema,
>(
  key: K,
  value: V,
) =>
  afterObject(noArrays(v.record(key, value), 'record'), (input, result, config) => {
    const issues = [...(result.issues ?? [])];
    // Null-prototype: a lookup of any key (`constructor` included) finds the input's own values only.
    const out: Record<string, unknown> = Object.assign(Object.create(null), result.value);
    for (const k of UNREAD_KEYS.filter((k) => Object.hasOwn(input, k))) {
      const pathItem = { type: 'object', origin: 'value', input, key: k, value: input[k] } as const;
      const keyResult = key['~run']({ value: k }, config) as Dataset;
      for (const issue of keyResult.issues ?? [])
        issues.push({ ...issue, path: [{ ...pathItem, origin: 'key' }] });
      const valueResult = value['~run']({ value: input[k] }, config) as Dataset;
      for (const issue of valueResult.issues ?? [])
        issues.push({ ...issue, path: [pathItem, ...(issue.path ?? [])] });
      Object.defineProperty(out, k, {
        value: valueResult.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return (issues.length ? { typed: false, value: out, issues } : { ...result, value: out }) as Dataset;
  });

/**
 * An object that refuses unknown keys, naming each ("Unknown field"), with its other issues.
 * valibot's own strictObject stops at the first unknown key. Compose with `entries`, not
 * v.partial/v.pick (which would rebuild the object without the check). The keys are read from the
 * input (the loose object's output lacks `__proto__`, `constructor` and `prototype`, which must fail).
 */
export function strictObject<const E extends v.ObjectEntries>(entries: E): StrictObject<E> {
  const loose = noArrays(v.looseObject(entries, objectMessage(entries)), 'object') as v.GenericSchema<
    Record<string, unknown>
  >;
  // The marker build.ts turns into additionalProperties: false.
  const marked = v.pipe(loose, { ...v.check<Record<string, unknown>>(() => true), type: STRICT_KEYS });
  return afterObject(marked, (input, result) => {
    const unknown = Object.keys(input).filter((key) => !Object.hasOwn(entries, key));
    if (unknown.length === 0) return result;
    const issues: Issue[] = unknown.map((key) => ({
      kind: 'validation',
      type: STRICT_KEYS,
      input: input[key],
      expected: null,
      received: typeName(input[key]),
      message: 'Unknown field',
      path: [{ type: 'object', origin: 'key', input, key, value: input[key] }],
    }));
    // Unknown keys are validation issues: checks piped after the object still run (zod did the same).
    return { ...result, issues: [...(result.issues ?? []), ...issues] } as Dataset;
  }) as unknown as StrictObject<E>;
}

/** Every entry optional (zod's `partial`). */
export const partial = <const E extends v.ObjectEntries>(entries: E) =>
  Object.fromEntries(Object.entries(entries).map(([k, s]) => [k, v.optional(s)])) as {
    [K in keyof E]: v.OptionalSchema<E[K], undefined>;
  };

/**
 * A number from any input, as `Number(input)` reads it (query parameters are strings); NaN and
 * ±Infinity fail ("Invalid input: expected number, received Infinity"), as zod's coerce.number did.
 */
export const coercedNumber = () =>
  v.pipe(
    v.unknown(),
    v.transform(Number),
    v.custom<number>(
      Number.isFinite,
      (issue) => `Invalid input: expected number, received ${typeName(issue.input)}`,
    ),
  );
