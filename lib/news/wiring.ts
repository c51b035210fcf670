// The one place the News adapters are chosen and handed to its domain; built on first use. Each
// operation has its own getter, wired with only the adapter methods it calls (lib/domain/only.ts),
// so a function bundles (and its role allows) only those: the reads their GetItem or Query, every
// function the counters' UpdateItem, only the status route the shards' BatchGetItem. `fullNews()` has
// every read: the local runner's banner, the bench and tests (docs/architecture.md, "Bundles").
import { systemClock } from '../domain/clock.ts';
import { once } from '../domain/once.ts';
import { only } from '../domain/only.ts';
import { logger } from '../http/logger.ts';
import {
  DynamoNewsReader,
  getArticle,
  getTag,
  getUser,
  newsPage,
  userArticles,
} from './adapters/dynamo-reader.ts';
import { addStatusCounts, readStatusShards } from './adapters/dynamo-status.ts';
import { StatusCounters } from './counters.ts';
import type { NewsReader, StatusStore } from './ports.ts';
import { NewsService, StatusService } from './service.ts';

/** This container's status counters (every News response is counted): one UpdateItem per flush. */
export const counters = /* @__PURE__ */ once(
  () =>
    new StatusCounters(only<StatusStore>('status', { addStatusCounts }), systemClock, (error) =>
      logger.warn('status counters not flushed', { error }),
    ),
);

/** Every read: the local runner's banner, the bench and tests. */
export const fullNews = /* @__PURE__ */ once(() => new NewsService(new DynamoNewsReader()));

const reading = (reader: Partial<NewsReader>) => new NewsService(only<NewsReader>('news', reader));
/** GET /api/v1/news and /news/latest: one Query of the news list. */
export const newsList = /* @__PURE__ */ once(() => reading({ newsPage }));
/** GET /api/v1/news/{id} and its summary: one GetItem. */
export const articles = /* @__PURE__ */ once(() => reading({ getArticle }));
/** GET /api/v1/users/{id}: the user's GetItem, then a Query of their page of articles. */
export const userPages = /* @__PURE__ */ once(() => reading({ getUser, userArticles }));
/** GET /api/v1/users/{id}/summary: one GetItem. */
export const userSummaries = /* @__PURE__ */ once(() => reading({ getUser }));
/** GET /api/v1/tags/{id} and its summary: one GetItem. */
export const tags = /* @__PURE__ */ once(() => reading({ getTag }));

/** GET /api/v1/status/web-api: flushes the counters, then reads every shard (BatchGetItem). */
export const status = /* @__PURE__ */ once(
  () => new StatusService(only<StatusStore>('status', { readStatusShards }), counters(), systemClock),
);

/** The internal edge's key and the CSRF signing key: Secrets Manager, read once per container. */
export { csrfSigningSecret, internalApiKey } from '../data/secrets.ts';
