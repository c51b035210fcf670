// News domain records as stored (users keep their raw private values; responses apply privacy).

export interface Picture {
  url: string;
  type: string;
}
export interface Avatar {
  '100': Picture;
  orig: Picture;
}

export interface Privacy {
  lastOnline: 0 | 1;
  name: 0 | 1;
  surname: 0 | 1;
  nickname: 0 | 1;
  dateOfBirth: 0 | 1 | 2;
  bio: 0 | 1;
  articles: 0 | 1;
}

export interface NewsUser {
  id: number;
  created: number;
  updated: number;
  lastOnline: number | null;
  name: string | null;
  surname: string | null;
  nickname: string | null;
  dateOfBirth: number | null;
  bio: string | null;
  roles: number[];
  avatar: Avatar | null;
  privacy: Privacy;
  /** Articles the user authored (maintained by the import). */
  articlesCount: number;
}

export interface Tag {
  id: number;
  name: string;
  description: string;
  articlesCount: number;
}

export interface Article {
  id: number;
  authors: number[];
  editors: number[];
  created: number;
  updated: number;
  body: string;
  tags: number[];
  /** The excerpt given at import, else derived from the body (always present once stored). */
  excerpt: string;
}

/** What the news list's rank items carry about an article: enough to rebuild every list and count. */
export interface CatalogEntry {
  id: number;
  created: number;
  authors: number[];
  tags: number[];
}

/** Newest first by created, ties by id descending (news, latest, a user's articles). */
export const newestFirst = (a: CatalogEntry, b: CatalogEntry): number => b.created - a.created || b.id - a.id;

/** Articles per page of a user's article list. */
export const USER_ARTICLES_PER_PAGE = 20;

export const pagesOf = (total: number, perPage: number): number => Math.max(1, Math.ceil(total / perPage));
