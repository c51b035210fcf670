// JSON request bodies (docs/validation.md, "Hostile input"): UTF-8 JSON only (another charset is
// 415); JSON.parse parses (no reviver: V8 parses any depth without recursion, while a reviver
// recurses and overflows the stack); the result is walked once, without recursion: nesting deeper
// than MAX_JSON_DEPTH, a `__proto__` key anywhere, or a string (key or value) with an unpaired UTF-16
// surrogate (which no UTF-8 store or tool can hold), is 422 naming every such field, before anything
// reads the body. `constructor` and `prototype` are ordinary keys (a user's map keys are data): only
// `__proto__` can reach a prototype, and the maps that hold user keys are read as own properties.
import { ApiError, type FieldError } from './errors.ts';

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;
const UTF8 = /^"?utf-?8"?$/i;
/** In a `u` regex a surrogate pair is one code point: \p{Cs} matches unpaired surrogates only. */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;
/** The key that an assignment or spread turns into a prototype. */
const FORBIDDEN_KEY = '__proto__';
/** The deepest nesting of arrays and objects a body may have (the top-level value is level 1). */
export const MAX_JSON_DEPTH = 64;

/** 415 unless the body is declared JSON in UTF-8 (middy's parser reads every charset as UTF-8). */
export function assertUtf8Json(contentType: string | undefined): void {
  const type = contentType ?? '';
  if (!JSON_TYPE.test(type)) {
    throw new ApiError(
      'unsupported_media_type',
      'The request content type is not supported by this operation',
    );
  }
  const charset = /;\s*charset\s*=\s*([^;\s]+)/i.exec(type)?.[1];
  if (charset !== undefined && !UTF8.test(charset)) {
    throw new ApiError(
      'unsupported_media_type',
      `The request body must be UTF-8 JSON, not charset=${charset}`,
    );
  }
}

/** 422 naming every hostile field of a parsed body (or of the raw text middy's parser refused). */
export function assertNoHostileFields(value: unknown): void {
  const fields = hostileFields(value);
  if (fields.length)
    throw new ApiError('validation_failed', 'One or more fields of the request body are invalid', { fields });
}

/** The body text parsed; a `__proto__` key stays an own key (JSON.parse defines, never assigns). */
export function parseJson(body: unknown, isBase64Encoded: boolean): unknown {
  if (typeof body !== 'string') throw malformed();
  try {
    return JSON.parse(isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body);
  } catch {
    throw malformed();
  }
}

const MALFORMED_JSON = 'The request body is not valid JSON';
const malformed = () =>
  new ApiError('validation_failed', MALFORMED_JSON, { fields: [{ field: 'body', message: MALFORMED_JSON }] });

/**
 * Every `__proto__` key, every string with an unpaired surrogate and every value nested too deep
 * in a parsed JSON value, by path, in document order. Iterative: a body's depth never reaches the
 * call stack.
 */
export function hostileFields(value: unknown): FieldError[] {
  const fields: FieldError[] = [];
  const todo: { v: unknown; path: string; depth: number }[] = [{ v: value, path: '', depth: 0 }];
  while (todo.length) {
    const { v, path, depth } = todo.pop()!;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) fields.push({ field: path || 'body', message: UNPAIRED });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      fields.push({ field: path || 'body', message: TOO_DEEP });
      continue;
    }
    const next: typeof todo = [];
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries())
        next.push({ v: item, path: path ? `${path}.${i}` : String(i), depth: depth + 1 });
    } else {
      for (const key of Object.keys(v)) {
        const at = path ? `${path}.${key}` : key;
        if (key === FORBIDDEN_KEY) fields.push({ field: at, message: `The key ${key} is not allowed` });
        else if (LONE_SURROGATE.test(key))
          fields.push({ field: at.replace(LONE_SURROGATES, '\uFFFD'), message: UNPAIRED });
        else next.push({ v: (v as Record<string, unknown>)[key], path: at, depth: depth + 1 });
      }
    }
    todo.push(...next.reverse());
  }
  return fields;
}

const UNPAIRED = 'Contains an unpaired UTF-16 surrogate (not valid Unicode text)';
const TOO_DEEP = `Nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`;
