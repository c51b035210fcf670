// JSON request bodies (docs/validation.md, "Hostile input"): UTF-8 JSON only (another charset is
// 415); middy's parser parses; the result is walked once: a `__proto__`, `constructor` or
// `prototype` key anywhere, or a string (key or value) with an unpaired UTF-16 surrogate (which no
// UTF-8 store or tool can hold), is 422 naming every such field, before anything reads the body.
// middy refuses `__proto__` itself without naming where it is: then the raw text is walked to name it.
import { ApiError, type FieldError } from './errors.ts';

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;
const UTF8 = /^"?utf-?8"?$/i;
/** In a `u` regex a surrogate pair is one code point: \p{Cs} matches unpaired surrogates only. */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

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

/** The raw body text, parsed without middy's prototype guard: JSON.parse makes `__proto__` an own key. */
export const rawJson = (body: string, isBase64Encoded: boolean): unknown =>
  JSON.parse(isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body);

export const MALFORMED_JSON = 'The request body is not valid JSON';

/** Every forbidden key and every string with an unpaired surrogate in a parsed JSON value, by path. */
export function hostileFields(value: unknown): FieldError[] {
  const fields: FieldError[] = [];
  const walk = (v: unknown, path: string) => {
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) fields.push({ field: path || 'body', message: UNPAIRED });
    } else if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) walk(item, path ? `${path}.${i}` : String(i));
    } else if (v !== null && typeof v === 'object') {
      for (const key of Object.keys(v)) {
        const at = path ? `${path}.${key}` : key;
        if (FORBIDDEN_KEYS.has(key)) fields.push({ field: at, message: `The key ${key} is not allowed` });
        else if (LONE_SURROGATE.test(key))
          fields.push({ field: at.replace(LONE_SURROGATES, '\uFFFD'), message: UNPAIRED });
        else walk((v as Record<string, unknown>)[key], at);
      }
    }
  };
  walk(value, '');
  return fields;
}

const UNPAIRED = 'Contains an unpaired UTF-16 surrogate (not valid Unicode text)';
