// News use cases on the request path: pages of ids, articles, users with privacy, tags, status.
import type { Clock } from '../domain/clock.ts';
import { NotFound, Unavailable } from '../domain/errors.ts';
import { COUNTER_SHARDS, type StatusCounters } from './counters.ts';
import { pagesOf, USER_ARTICLES_PER_PAGE } from './model.ts';
import {
  presentArticle,
  presentArticleSummary,
  presentTag,
  presentTagSummary,
  presentUser,
  presentUserSummary,
} from './present.ts';
import type { NewsReader, StatusStore } from './ports.ts';

/** How long a caller should wait before asking for the status again when the counters are unreachable. */
export const STATUS_RETRY_SECONDS = 5;

const found = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new NotFound(`${what} does not exist`);
  return value;
};

export class NewsService {
  constructor(private readonly store: NewsReader) {}

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

  async tag(id: number) {
    return presentTag(found(await this.store.getTag(id), `tag ${id}`));
  }

  async tagSummary(id: number) {
    return presentTagSummary(found(await this.store.getTag(id), `tag ${id}`));
  }
}

/** The live status of the service, summed over every container's counter shard. */
export class StatusService {
  constructor(
    private readonly store: StatusStore,
    private readonly counters: StatusCounters,
    private readonly clock: Clock,
  ) {}

  /**
   * Flushes this container's counts, then sums every shard. Unreachable counters (the flush or the
   * read failed, each after one bounded attempt): Unavailable.
   */
  async status(now = this.clock.now()) {
    try {
      if (!(await this.counters.flush(now))) throw new Error('the status counters could not be written');
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
      throw new Unavailable(`status counters unreachable: ${(error as Error).message}`, STATUS_RETRY_SECONDS);
    }
  }
}
