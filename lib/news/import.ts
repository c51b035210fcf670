// import-news: validates a {users, tags, articles} document (the API's own field names; users carry
// privacy and raw private values), then upserts it and rebuilds what depends on it: the news list's
// dense ranks, each affected user's article list and articlesCount, each affected tag's
// articlesCount. Nothing is written when any record is invalid. Lists are recomputed from the
// stored catalog (the news list's rank items) merged with the file, and only changed slots are
// written, so re-importing the same file writes entities only.
import * as z from 'zod/mini';
// (zod-locale: migrating)
import { deriveExcerpt } from './excerpt.ts';
import { newestFirst, type Article, type CatalogEntry, type NewsUser, type Tag } from './model.ts';
import type { ImportPlan, ImportStore, ListRef, RankChange } from './ports.ts';

const id = z.number().check(z.int(), z.gte(1), z.lte(Number.MAX_SAFE_INTEGER));
const timestamp = z.number().check(z.int(), z.gte(0), z.lte(253402300799));
const level = z.union([z.literal(0), z.literal(1)]);
const ids = z.array(id).check(z.refine((a) => new Set(a).size === a.length, 'contains duplicate ids'));
const picture = z.strictObject({
  url: z
    .string()
    .check(z.regex(/^[A-Za-z0-9.-]+(?::[0-9]+)?\/\S*$/, 'must be host and path without a scheme')),
  type: z.enum(['webp', 'png', 'jpeg', 'gif', 'avif']),
});
const nullByDefault = <T extends z.ZodMiniType>(s: T) => z._default(z.nullable(s), null);

export const importUser = z
  .strictObject({
    id,
    created: timestamp,
    updated: timestamp,
    lastOnline: nullByDefault(timestamp),
    name: nullByDefault(z.string()),
    surname: nullByDefault(z.string()),
    nickname: nullByDefault(z.string()),
    dateOfBirth: nullByDefault(z.number().check(z.int(), z.gte(-8_640_000_000), z.lte(253402300799))),
    bio: nullByDefault(z.string()),
    roles: z._default(z.array(z.number().check(z.int(), z.gte(0))), []),
    hasAvatar: z.optional(z.boolean()),
    avatar: nullByDefault(z.strictObject({ 100: picture, orig: picture })),
    privacy: z.strictObject({
      lastOnline: level,
      name: level,
      surname: level,
      nickname: level,
      dateOfBirth: z.union([level, z.literal(2)]),
      bio: level,
      articles: level,
    }),
  })
  .check(
    z.refine((u) => u.hasAvatar === undefined || u.hasAvatar === (u.avatar !== null), {
      message: 'must be true exactly when avatar is not null',
      path: ['hasAvatar'],
    }),
  );

export const importTag = z.strictObject({
  id,
  name: z.string().check(z.minLength(1)),
  description: z._default(z.string(), ''),
});

export const importArticle = z.strictObject({
  id,
  authors: ids.check(z.minLength(1, 'needs at least one author')),
  editors: z._default(ids, []),
  created: timestamp,
  updated: timestamp,
  body: z.string(),
  excerpt: z.optional(z.string()),
  tags: z._default(ids, []),
});

export const importDocument = z.strictObject({
  users: z._default(z.array(z.unknown()), []),
  tags: z._default(z.array(z.unknown()), []),
  articles: z._default(z.array(z.unknown()), []),
});

export type ImportUser = z.input<typeof importUser>;
export type ImportTag = z.input<typeof importTag>;
export type ImportArticle = z.input<typeof importArticle>;
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

const field = (path: PropertyKey[]) => path.map(String).join('.') || '(record)';
const recordName = (collection: string, index: number, raw: unknown) => {
  const rid = (raw as { id?: unknown } | null)?.id;
  return `${collection}[${index}]${typeof rid === 'number' || typeof rid === 'string' ? ` (id ${rid})` : ''}`;
};

function parseAll<S extends z.ZodMiniType>(
  collection: string,
  schema: S,
  records: unknown[],
  problems: string[],
): z.output<S>[] {
  const out: z.output<S>[] = [];
  const seen = new Set<number>();
  records.forEach((raw, index) => {
    const r = schema.safeParse(raw);
    if (!r.success) {
      for (const issue of r.error.issues) {
        const keys =
          issue.code === 'unrecognized_keys'
            ? `: unknown field(s) ${issue.keys.join(', ')}`
            : `: ${issue.message}`;
        problems.push(`${recordName(collection, index, raw)} ${field(issue.path)}${keys}`);
      }
      return;
    }
    const value = r.data as { id: number };
    if (seen.has(value.id))
      problems.push(`${recordName(collection, index, raw)} id: duplicate id in ${collection}`);
    seen.add(value.id);
    out.push(r.data);
  });
  return out;
}

/** Validates the whole document; throws ImportValidationError listing every problem. */
export async function validateImport(input: unknown, store: ImportStore) {
  const top = importDocument.safeParse(input);
  const problem = (i: z.core.$ZodIssue) =>
    i.code === 'unrecognized_keys' ? `unknown field(s) ${i.keys.join(', ')}` : i.message;
  if (!top.success)
    throw new ImportValidationError(top.error.issues.map((i) => `document ${field(i.path)}: ${problem(i)}`));
  const problems: string[] = [];
  const users = parseAll('users', importUser, top.data.users, problems);
  const tags = parseAll('tags', importTag, top.data.tags, problems);
  const articles = parseAll('articles', importArticle, top.data.articles, problems);

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
