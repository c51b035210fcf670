// The News test data set: four users covering the privacy levels, three tags, 45 articles; and
// the expectations derived from it independently of the implementation.
import type { ImportArticle, ImportTag, ImportUser } from '../../lib/news/import.ts';

export const T0 = 1_767_225_600;
const open = {
  lastOnline: 1,
  name: 1,
  surname: 1,
  nickname: 1,
  dateOfBirth: 2,
  bio: 1,
  articles: 1,
} as const;
const closed = {
  lastOnline: 0,
  name: 0,
  surname: 0,
  nickname: 0,
  dateOfBirth: 0,
  bio: 0,
  articles: 0,
} as const;
const avatar = {
  100: { url: 'cdn.example.org/avatars/101/100.webp', type: 'webp' },
  orig: { url: 'cdn.example.org/avatars/101/orig.jpeg', type: 'jpeg' },
} as const;

const person = (id: number, privacy: ImportUser['privacy'], extra: Partial<ImportUser> = {}): ImportUser => ({
  id,
  created: 1_600_000_000 + id,
  updated: 1_700_000_000 + id,
  lastOnline: 1_760_000_000 + id,
  name: `Name${id}`,
  surname: `Surname${id}`,
  nickname: `nick${id}`,
  dateOfBirth: Date.UTC(1985, 6, 14, 15, 30) / 1000,
  bio: `Bio of ${id}`,
  roles: [1],
  avatar: null,
  privacy,
  ...extra,
});

export const users: ImportUser[] = [
  person(101, open, { avatar, roles: [1, 3], hasAvatar: true }),
  person(102, closed),
  person(103, { ...closed, name: 1, bio: 1, dateOfBirth: 1, articles: 1 }),
  person(104, { ...open, lastOnline: 0, dateOfBirth: 1 }, { dateOfBirth: Date.UTC(1996, 1, 29, 8) / 1000 }),
];
export const tags: ImportTag[] = [
  { id: 201, name: 'World', description: 'World news' },
  { id: 202, name: 'Tech', description: 'Technology' },
  { id: 203, name: 'Empty', description: 'No article carries it' },
];

/** Article i (1..45): written by 101; 103 co-writes every third, 102 every fifth. 2 and 3 share a timestamp. */
export const article = (i: number): ImportArticle => ({
  id: i,
  authors: [101, ...(i % 3 === 0 ? [103] : []), ...(i % 5 === 0 ? [102] : [])],
  editors: i % 4 === 0 ? [104] : [],
  created: T0 - (i === 3 ? 2 : i) * 100,
  updated: T0 - i * 100 + 50,
  body: `# Heading ${i}\n\nFirst **paragraph** of [article](https://example.org) ${i}.\n\nSecond paragraph.`,
  ...(i % 10 === 0 ? { excerpt: `Stored excerpt ${i}` } : {}),
  tags: [...(i % 2 === 0 ? [201] : []), ...(i % 3 === 0 ? [202] : [])],
});
export const articles: ImportArticle[] = Array.from({ length: 45 }, (_, i) => article(i + 1));
export const dataSet = { users, tags, articles };

export const newestFirst = (list: ImportArticle[]) =>
  [...list].sort((a, b) => b.created - a.created || b.id - a.id).map((a) => a.id);
