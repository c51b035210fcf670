// import-news: validates a {users, tags, articles} document (the API's own field names; users carry
// privacy and raw private values), then upserts it and rebuilds what depends on it: the news list's
// dense ranks, each affected user's article list and articlesCount, each affected tag's
// articlesCount. Nothing is written when any record is invalid. Lists are recomputed from the
// stored catalog (the news list's rank items) merged with the file, and only changed slots are
// written, so re-importing the same file writes entities only.
import * as v from 'valibot';
import { safeParse, STRICT_KEYS, strictObject } from '../domain/schema.ts';
import { int } from '../domain/schema-numbers.ts';
import { deriveExcerpt } from './excerpt.ts';
import { newestFirst, type Article, type CatalogEntry, type NewsUser, type Tag } from './model.ts';
import type { ImportPlan, ImportStore, ListRef, RankChange } from './ports.ts';

/** An integer from `min` to `max`, as the import always checked it (lib/domain/schema-numbers.ts). */
const integer = (min: number, max?: number) =>
  max === undefined ? v.pipe(int(), v.minValue(min)) : v.pipe(int(), v.minValue(min), v.maxValue(max));
const id = integer(1, Number.MAX_SAFE_INTEGER);
const timestamp = integer(0, 253402300799);
/** zod's message for a union, whether the key is missing or wrong. */
const level = v.union([v.literal(0), v.literal(1)], 'Invalid input');
const ids = v.pipe(
  v.array(id),
  v.check((a) => new Set(a).size === a.length, 'contains duplicate ids'),
);
const picture = strictObject({
  url: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9.-]+(?::[0-9]+)?\/\S*$/, 'must be host and path without a scheme'),
  ),
  type: v.picklist(['webp', 'png', 'jpeg', 'gif', 'avif']),
});
const nullByDefault = <S extends v.GenericSchema>(s: S) => v.optional(v.nullable(s), null);

export const importUser = v.pipe(
  strictObject({
    id,
    created: timestamp,
    updated: timestamp,
    lastOnline: nullByDefault(timestamp),
    name: nullByDefault(v.string()),
    surname: nullByDefault(v.string()),
    nickname: nullByDefault(v.string()),
    dateOfBirth: nullByDefault(integer(-8_640_000_000, 253402300799)),
    bio: nullByDefault(v.string()),
    roles: v.optional(v.array(integer(0)), []),
    hasAvatar: v.optional(v.boolean()),
    avatar: nullByDefault(strictObject({ 100: picture, orig: picture })),
    privacy: strictObject({
      lastOnline: level,
      name: level,
      surname: level,
      nickname: level,
      dateOfBirth: v.union([level, v.literal(2)], 'Invalid input'),
      bio: level,
      articles: level,
    }),
  }),
  v.forward(
    v.check(
      (u) => u.hasAvatar === undefined || u.hasAvatar === (u.avatar !== null),
      'must be true exactly when avatar is not null',
    ),
    ['hasAvatar'],
  ),
);

export const importTag = strictObject({
  id,
  name: v.pipe(v.string(), v.minLength(1)),
  description: v.optional(v.string(), ''),
});

export const importArticle = strictObject({
  id,
  authors: v.pipe(ids, v.minLength(1, 'needs at least one author')),
  editors: v.optional(ids, []),
  created: timestamp,
  updated: timestamp,
  body: v.string(),
  excerpt: v.optional(v.string()),
  tags: v.optional(ids, []),
});

export const importDocument = strictObject({
  users: v.optional(v.array(v.unknown()), []),
  tags: v.optional(v.array(v.unknown()), []),
  articles: v.optional(v.array(v.unknown()), []),
});

export type ImportUser = v.InferInput<typeof importUser>;
export type ImportTag = v.InferInput<typeof importTag>;
export type ImportArticle = v.InferInput<typeof importArticle>;
export interface ImportInput {
  users?: ImportUser[];
  tags?: ImportTag[];
  articles?: ImportArticle[];
}

const MAX_REPORTED = 50;

/** Invalid input: every problem names the record (collection, index, id) and the field. */
export class ImportValidationError extends Error {
  constructor(readonly problems: string[]) {
    const more = problems.length > MAX_REPORTED ? `\n  ... and ${problems.length - MAX_REPORTED} more` : '';
    const listed = problems.slice(0, MAX_REPORTED).join('\n  ');
    super(`import rejected, nothing written; ${problems.length} problem(s):\n  ${listed}${more}`);
  }
}

export interface ImportSummary {
  users: number;
  tags: number;
  articles: number;
  articlesTotal: number;
  writes: number;
}
export interface ImportOptions {
  progress?: (phase: string, done: number, total: number) => void;
}

type Issue = v.BaseIssue<unknown>;
const field = (path: readonly PropertyKey[]) => path.map(String).join('.') || '(record)';
const recordName = (collection: string, index: number, raw: unknown) => {
  const rid = (raw as { id?: unknown } | null)?.id;
  return `${collection}[${index}]${typeof rid === 'number' || typeof rid === 'string' ? ` (id ${rid})` : ''}`;
};

/**
 * Each problem as "<field>: <message>"; an object's unknown keys are one problem at the object
 * ("avatar.100: unknown field(s) a, b"), where the schema reports one issue per key.
 */
function describeIssues(issues: readonly Issue[]): string[] {
  const out: { at: string; message: string; keys?: string[] }[] = [];
  for (const issue of issues) {
    const path = (issue.path ?? []).map((p) => p.key as PropertyKey);
    if (issue.type !== STRICT_KEYS) {
      out.push({ at: field(path), message: issue.message });
      continue;
    }
    const at = field(path.slice(0, -1));
    const key = String(path.at(-1));
    const same = out.find((p) => p.keys && p.at === at);
    if (same) same.keys!.push(key);
    else out.push({ at, message: '', keys: [key] });
  }
  return out.map((p) => `${p.at}: ${p.keys ? `unknown field(s) ${p.keys.join(', ')}` : p.message}`);
}

function parseAll<S extends v.GenericSchema>(
  collection: string,
  schema: S,
  records: unknown[],
  problems: string[],
): v.InferOutput<S>[] {
  const out: v.InferOutput<S>[] = [];
  const seen = new Set<number>();
  records.forEach((raw, index) => {
    const r = safeParse(schema, raw);
    if (!r.success) {
      for (const p of describeIssues(r.issues)) problems.push(`${recordName(collection, index, raw)} ${p}`);
      return;
    }
    const value = r.output as { id: number };
    if (seen.has(value.id))
      problems.push(`${recordName(collection, index, raw)} id: duplicate id in ${collection}`);
    seen.add(value.id);
    out.push(r.output);
  });
  return out;
}

/** Validates the whole document; throws ImportValidationError listing every problem. */
export async function validateImport(input: unknown, store: ImportStore) {
  const top = safeParse(importDocument, input);
  if (!top.success) throw new ImportValidationError(describeIssues(top.issues).map((p) => `document ${p}`));
  const data = top.output;
  const problems: string[] = [];
  const users = parseAll('users', importUser, data.users, problems);
  const tags = parseAll('tags', importTag, data.tags, problems);
  const articles = parseAll('articles', importArticle, data.articles, problems);

  // References: users and tags named by articles must be in the file or already stored.
  const fileUsers = new Set(users.map((u) => u.id));
  const fileTags = new Set(tags.map((t) => t.id));
  const wantedUsers = [...new Set(articles.flatMap((a) => [...a.authors, ...a.editors]))].filter(
    (u) => !fileUsers.has(u),
  );
  const wantedTags = [...new Set(articles.flatMap((a) => a.tags))].filter((t) => !fileTags.has(t));
  const [storedUsers, storedTags] = await Promise.all([
    store.existingUsers(wantedUsers),
    store.existingTags(wantedTags),
  ]);
  articles.forEach((a) => {
    const name = `articles (id ${a.id})`;
    for (const f of ['authors', 'editors'] as const) {
      for (const u of a[f])
        if (!fileUsers.has(u) && !storedUsers.has(u)) problems.push(`${name} ${f}: unknown user ${u}`);
    }
    for (const t of a.tags)
      if (!fileTags.has(t) && !storedTags.has(t)) problems.push(`${name} tags: unknown tag ${t}`);
  });
  if (problems.length) throw new ImportValidationError(problems);
  return { users, tags, articles };
}

const sameEntry = (a: CatalogEntry | undefined, b: CatalogEntry | undefined): boolean =>
  a !== undefined &&
  b !== undefined &&
  a.id === b.id &&
  a.created === b.created &&
  a.authors.join() === b.authors.join() &&
  a.tags.join() === b.tags.join();

/** Slot-by-slot changes turning list `before` into list `after`. */
function listChanges(
  list: ListRef,
  before: CatalogEntry[],
  after: CatalogEntry[],
  rewriteAll: boolean,
): RankChange[] {
  const changes: RankChange[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i += 1) {
    const [b, a] = [before[i], after[i]];
    if (a === undefined) changes.push({ list, rank: i + 1, entry: null });
    else if (rewriteAll || !sameEntry(a, b)) changes.push({ list, rank: i + 1, entry: a });
  }
  return changes;
}

const byAuthor = (catalog: CatalogEntry[]): Map<number, CatalogEntry[]> => {
  const out = new Map<number, CatalogEntry[]>();
  for (const e of catalog) for (const u of e.authors) (out.get(u) ?? out.set(u, []).get(u)!).push(e);
  return out;
};
const tagCounts = (catalog: CatalogEntry[]): Map<number, number> => {
  const out = new Map<number, number>();
  for (const e of catalog) for (const t of e.tags) out.set(t, (out.get(t) ?? 0) + 1);
  return out;
};

/** Validates and upserts `input`; idempotent. */
export async function importNews(
  input: unknown,
  store: ImportStore,
  opts: ImportOptions = {},
): Promise<ImportSummary> {
  const progress = opts.progress ?? (() => {});
  progress('validate', 0, 1);
  const data = await validateImport(input, store);
  progress('validate', 1, 1);

  const before = await store.loadCatalog();
  const merged = new Map(before.map((e) => [e.id, e]));
  for (const a of data.articles)
    merged.set(a.id, { id: a.id, created: a.created, authors: a.authors, tags: a.tags });
  const after = [...merged.values()].sort(newestFirst);

  const oldByAuthor = byAuthor(before);
  const newByAuthor = byAuthor(after);
  const userIds = new Set([...oldByAuthor.keys(), ...newByAuthor.keys()]);
  const userListChanges = [...userIds].flatMap((u) =>
    listChanges({ kind: 'user', userId: u }, oldByAuthor.get(u) ?? [], newByAuthor.get(u) ?? [], false),
  );
  const countOf = (u: number, lists: Map<number, CatalogEntry[]>) => lists.get(u)?.length ?? 0;

  const oldTags = tagCounts(before);
  const newTags = tagCounts(after);
  const fileUsers = new Set(data.users.map((u) => u.id));
  const fileTags = new Set(data.tags.map((t) => t.id));

  const plan: ImportPlan = {
    articles: data.articles.map(
      (a): Article => ({
        id: a.id,
        authors: a.authors,
        editors: a.editors,
        created: a.created,
        updated: a.updated,
        body: a.body,
        tags: a.tags,
        excerpt: a.excerpt ?? deriveExcerpt(a.body),
      }),
    ),
    users: data.users.map(
      ({ hasAvatar: _derived, ...u }): NewsUser => ({ ...u, articlesCount: countOf(u.id, newByAuthor) }),
    ),
    tags: data.tags.map((t): Tag => ({ ...t, articlesCount: newTags.get(t.id) ?? 0 })),
    userCounts: [...userIds]
      .filter((u) => !fileUsers.has(u) && countOf(u, oldByAuthor) !== countOf(u, newByAuthor))
      .map((u) => [u, countOf(u, newByAuthor)]),
    tagCounts: [...new Set([...oldTags.keys(), ...newTags.keys()])]
      .filter((t) => !fileTags.has(t) && oldTags.get(t) !== newTags.get(t))
      .map((t) => [t, newTags.get(t) ?? 0]),
    userListChanges,
    // Every news rank item carries the list's size, so a change of size rewrites the whole list.
    newsListChanges: listChanges({ kind: 'news' }, before, after, before.length !== after.length),
    newsTotal: after.length,
  };
  let writes = 0;
  await store.applyImport(plan, (done, total) => {
    writes = total;
    progress('write', done, total);
  });
  return {
    users: plan.users.length,
    tags: plan.tags.length,
    articles: plan.articles.length,
    articlesTotal: after.length,
    writes,
  };
}
