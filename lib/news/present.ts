// Response shapes of the News interface document, privacy applied, fields in its tables' order.
import type { Article, NewsUser, Tag } from './model.ts';

/** dateOfBirth at privacy level 1: the same day and month in 1970 at 00:00 UTC (29 Feb becomes 1 Mar). */
export const dayAndMonthOnly = (timestamp: number): number => {
  const d = new Date(timestamp * 1000);
  return Date.UTC(1970, d.getUTCMonth(), d.getUTCDate()) / 1000;
};

const dateOfBirth = (u: NewsUser): number | null =>
  u.dateOfBirth === null || u.privacy.dateOfBirth === 0
    ? null
    : u.privacy.dateOfBirth === 1
      ? dayAndMonthOnly(u.dateOfBirth)
      : u.dateOfBirth;

const shown = <T>(level: 0 | 1, value: T | null): T | null => (level === 1 ? value : null);

export function presentArticle(a: Article, withExcerpt: boolean) {
  return {
    id: a.id,
    authors: a.authors,
    editors: a.editors,
    created: a.created,
    updated: a.updated,
    body: a.body,
    ...(withExcerpt ? { excerpt: a.excerpt } : {}),
    tags: a.tags,
  };
}

export const presentArticleSummary = (a: Article) => ({
  id: a.id,
  author: a.authors[0],
  created: a.created,
  updated: a.updated,
  excerpt: a.excerpt,
  tags: a.tags,
});

/** The user's own articles part of the full user (page of ids, or null at privacy level 0). */
export interface UserArticlesPage {
  articles: number[] | null;
  page: number;
  pages: number;
  perPage: number;
}

export function presentUserSummary(u: NewsUser) {
  const p = u.privacy;
  return {
    id: u.id,
    created: u.created,
    updated: u.updated,
    lastOnline: shown(p.lastOnline, u.lastOnline),
    name: shown(p.name, u.name),
    surname: shown(p.surname, u.surname),
    nickname: shown(p.nickname, u.nickname),
    dateOfBirth: dateOfBirth(u),
    bio: shown(p.bio, u.bio),
    roles: u.roles,
    articlesCount: p.articles === 1 ? u.articlesCount : -1,
    hasAvatar: u.avatar !== null,
    avatar: u.avatar,
    privacy: u.privacy,
  };
}

export function presentUser(u: NewsUser, part: UserArticlesPage) {
  const { articlesCount, hasAvatar, avatar, privacy, ...head } = presentUserSummary(u);
  return {
    ...head,
    articles: part.articles,
    articlesCount,
    page: part.page,
    pages: part.pages,
    perPage: part.perPage,
    hasAvatar,
    avatar,
    privacy,
  };
}

export const presentTag = (t: Tag) => ({ name: t.name, description: t.description });
export const presentTagSummary = (t: Tag) => ({
  name: t.name,
  description: t.description,
  articlesCount: t.articlesCount,
});
