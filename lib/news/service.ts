// News use cases on the request path: pages of ids, articles, users with privacy, tags, status.
import { config } from '../config.ts';
import { RETRY_AFTER_SECONDS } from '../data/fail-fast.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { COUNTER_SHARDS, newsCounters, type StatusCounters } from './counters.ts';
import { DynamoNewsStore } from './dynamo-store.ts';
import { pagesOf, USER_ARTICLES_PER_PAGE } from './model.ts';
import { presentArticle, presentArticleSummary, presentTag, presentTagSummary, presentUser, presentUserSummary } from './present.ts';
import type { NewsStore } from './store.ts';

/** The status body the gateway also serves when no function can run (template.yaml). */
export const OFFLINE_STATUS = { vg: false, uptime: -1, errorsCount: -1, requestsServed: -1 } as const;

const found = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw notFound(`${what} does not exist`);
  return value;
};

export class NewsService {
  constructor(private readonly store: NewsStore, private readonly counters: StatusCounters) {}

  async newsPage(page: number, perPage: number) {
    const { ids, total } = await this.store.newsPage((page - 1) * perPage + 1, perPage);
    return { articles: ids, articlesCount: total, page, pages: pagesOf(total, perPage), perPage };
  }

  async latest(count: number): Promise<number[]> {
    return (await this.store.newsPage(1, count)).ids;
  }

  async article(id: number, withExcerpt: boolean) {
    return presentArticle(found(await this.store.getArticle(id), `article ${id}`), withExcerpt);
  }

  async articleSummary(id: number) {
    return presentArticleSummary(found(await this.store.getArticle(id), `article ${id}`));
  }

  async user(id: number, page: number) {
    const user = found(await this.store.getUser(id), `user ${id}`);
    const perPage = USER_ARTICLES_PER_PAGE;
    if (user.privacy.articles === 0) return presentUser(user, { articles: null, page, pages: 1, perPage });
    const start = (page - 1) * perPage + 1;
    const articles = start > user.articlesCount ? [] : await this.store.userArticles(id, start, perPage);
    return presentUser(user, { articles, page, pages: pagesOf(user.articlesCount, perPage), perPage });
  }

  async userSummary(id: number) {
    return presentUserSummary(found(await this.store.getUser(id), `user ${id}`));
  }

  async tag(id: number) { return presentTag(found(await this.store.getTag(id), `tag ${id}`)); }

  async tagSummary(id: number) { return presentTagSummary(found(await this.store.getTag(id), `tag ${id}`)); }

  /**
   * Flushes this container's counts, then sums every shard. Unreachable data (the flush failed, or
   * the read): 503 with the offline body, after one bounded attempt (lib/data/fail-fast.ts).
   */
  async status(now = Date.now()) {
    try {
      if (!(await this.counters.flush(now))) throw new Error('status counters could not be written');
      const shards = await this.store.readStatusShards(COUNTER_SHARDS);
      const starts = shards.map((s) => s.startedAt).filter((t): t is number => t !== undefined);
      const startedAt = starts.length ? Math.min(...starts) : Math.floor(now / 1000);
      return {
        vg: true,
        uptime: Math.max(0, Math.floor(now / 1000) - startedAt),
        errorsCount: shards.reduce((n, s) => n + s.errors, 0),
        requestsServed: shards.reduce((n, s) => n + s.served, 0),
      };
    } catch (error) {
      throw new ApiError('service_unavailable', `status counters unreachable: ${(error as Error).message}`, { extra: { response: OFFLINE_STATUS }, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
    }
  }
}

export const news = new NewsService(new DynamoNewsStore(() => config.tableName), newsCounters);
