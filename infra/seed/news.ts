// News demo content, generated deterministically in code: users at every privacy level (with and
// without avatar), tags, and articles with one or two authors. Used by the seed, tests and bench.
import type { SeedContext } from './context.ts';
import type { ImportArticle, ImportTag, ImportUser } from '../../lib/news/import.ts';
import { importIntoTable } from './import-news.ts';

export interface NewsData {
  users: ImportUser[];
  tags: ImportTag[];
  articles: ImportArticle[];
}
export interface NewsDataOptions {
  users?: number;
  tags?: number;
  articles?: number;
  idBase?: number;
  newest?: number;
}

const WORDS = (
  'news service article privacy level page rank tag user avatar token status uptime import batch ' +
  'query partition edge internal origin summary excerpt markdown body paragraph'
).split(' ');
const TAGS = ['Politics', 'Science', 'Sports', 'Culture', 'Technology', 'Travel', 'Health', 'Business'];
const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'Ken',
  'Margaret',
  'Niklaus',
  'Radia',
  'Tim',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Thompson',
  'Hamilton',
  'Wirth',
  'Perlman',
  'Berners-Lee',
];

/** A tiny deterministic PRNG (mulberry32), so the same options give the same data. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

export function generateNewsData(o: NewsDataOptions = {}): NewsData {
  const {
    users: nUsers = 12,
    tags: nTags = 6,
    articles: nArticles = 60,
    idBase = 0,
    newest = 1_767_225_600,
  } = o;
  const rnd = prng(idBase + nArticles);
  const words = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
  const users: ImportUser[] = Array.from({ length: nUsers }, (_, i) => {
    const id = idBase + i + 1;
    const bit = (b: number) => ((i >> b) & 1) as 0 | 1;
    return {
      id,
      created: 1_600_000_000 + i * 86_400,
      updated: 1_700_000_000 + i * 3600,
      lastOnline: 1_760_000_000 + i * 60,
      name: FIRST[i % FIRST.length],
      surname: LAST[i % LAST.length],
      nickname: `${FIRST[i % FIRST.length].toLowerCase()}${id}`,
      dateOfBirth: 315_532_800 + i * 40_000_000,
      bio: `Writes about ${TAGS[i % TAGS.length].toLowerCase()}.`,
      roles: i === 0 ? [1, 2] : [1],
      avatar:
        i % 2 === 0
          ? {
              100: { url: `cdn.example.org/avatars/${id}/100.webp`, type: 'webp' },
              orig: { url: `cdn.example.org/avatars/${id}/orig.png`, type: 'png' },
            }
          : null,
      // dateOfBirth cycles 0/1/2; the other fields take every 0/1 combination across users.
      privacy: {
        lastOnline: bit(0),
        name: (1 - bit(0)) as 0 | 1,
        surname: bit(1),
        nickname: (1 - bit(1)) as 0 | 1,
        dateOfBirth: (i % 3) as 0 | 1 | 2,
        bio: bit(2),
        articles: (i % 4 === 3 ? 0 : 1) as 0 | 1,
      },
    };
  });
  const tags: ImportTag[] = Array.from({ length: nTags }, (_, i) => ({
    id: idBase + i + 1,
    name: TAGS[i % TAGS.length],
    description: `Articles about ${TAGS[i % TAGS.length].toLowerCase()}.`,
  }));
  let created = newest;
  const articles: ImportArticle[] = Array.from({ length: nArticles }, (_, i) => {
    // Every 7th shares the previous timestamp (ties by id).
    if (i % 7 !== 6) created -= 600 + Math.floor(rnd() * 3000);
    const first = idBase + 1 + Math.floor(rnd() * nUsers);
    const second = idBase + 1 + Math.floor(rnd() * nUsers);
    const tagIds = [
      ...new Set(Array.from({ length: Math.floor(rnd() * 3) }, () => idBase + 1 + Math.floor(rnd() * nTags))),
    ];
    return {
      id: idBase + i + 1,
      authors: i % 3 === 0 && second !== first ? [first, second] : [first],
      editors: i % 5 === 0 ? [idBase + 1] : [],
      created,
      updated: created + (i % 4) * 300,
      body: `# ${words(4)}\n\n${words(20 + Math.floor(rnd() * 60))}.\n\n${words(40)}.`,
      ...(i % 10 === 0 ? { excerpt: `Editor's excerpt of article ${idBase + i + 1}.` } : {}),
      tags: tagIds,
    };
  });
  return { users, tags, articles };
}

/** News demo data; returns lines to print with the credentials. */
export async function seedNews(_ctx: SeedContext): Promise<string[]> {
  const data = generateNewsData();
  const summary = await importIntoTable(data);
  const users = `users 1-${data.users.length} (every privacy level; odd ids without avatar)`;
  const routes = 'GET /api/v1/news, /api/v1/users/1, /api/v1/tags/1/summary';
  return [`News: ${summary.articlesTotal} articles, ${users}, tags 1-${data.tags.length}: ${routes}`];
}
