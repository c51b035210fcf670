// In-memory adapters of the News ports (unit tests): the same contracts as dynamo-*.ts, over one
// shared state (the import writes what the reader reads).
import type { Article, CatalogEntry, NewsUser, Tag } from '../model.ts';
import type { ImportPlan, ImportStore, ListRef, NewsReader, StatusShard, StatusStore } from '../ports.ts';

const copy = <T>(value: T): T => structuredClone(value);
const listName = (list: ListRef) => (list.kind === 'news' ? 'news' : `user:${list.userId}`);

export class MemoryNewsTables {
  readonly articles = new Map<number, Article>();
  readonly users = new Map<number, NewsUser>();
  readonly tags = new Map<number, Tag>();
  /** list -> rank -> entry */
  readonly lists = new Map<string, Map<number, CatalogEntry>>();
  newsTotal = 0;
  readonly shards = new Map<number, StatusShard>();

  list(name: string): Map<number, CatalogEntry> {
    return this.lists.get(name) ?? this.lists.set(name, new Map()).get(name)!;
  }

  /** Ids at ranks start..start+size-1 of a list. */
  ids(name: string, start: number, size: number): number[] {
    const list = this.list(name);
    const out: number[] = [];
    for (let rank = start; rank < start + size; rank += 1) {
      const entry = list.get(rank);
      if (entry) out.push(entry.id);
    }
    return out;
  }
}

export class MemoryNewsReader implements NewsReader {
  constructor(private readonly t: MemoryNewsTables) {}
  async getArticle(id: number) {
    const a = this.t.articles.get(id);
    return a && copy(a);
  }
  async getUser(id: number) {
    const u = this.t.users.get(id);
    return u && copy(u);
  }
  async getTag(id: number) {
    const g = this.t.tags.get(id);
    return g && copy(g);
  }
  async newsPage(start: number, size: number) {
    return { ids: this.t.ids('news', start, size), total: this.t.newsTotal };
  }
  async userArticles(userId: number, start: number, size: number) {
    return this.t.ids(`user:${userId}`, start, size);
  }
}

export class MemoryImportStore implements ImportStore {
  constructor(private readonly t: MemoryNewsTables) {}

  async loadCatalog(): Promise<CatalogEntry[]> {
    return [...this.t.list('news').entries()].sort(([a], [b]) => a - b).map(([, e]) => copy(e));
  }

  async existingUsers(ids: number[]) {
    return new Set(ids.filter((id) => this.t.users.has(id)));
  }
  async existingTags(ids: number[]) {
    return new Set(ids.filter((id) => this.t.tags.has(id)));
  }

  async applyImport(plan: ImportPlan, progress: (done: number, total: number) => void): Promise<void> {
    const { t } = this;
    for (const a of plan.articles) t.articles.set(a.id, copy(a));
    for (const u of plan.users) t.users.set(u.id, copy(u));
    for (const g of plan.tags) t.tags.set(g.id, copy(g));
    for (const [id, n] of plan.userCounts) {
      const u = t.users.get(id);
      if (u) u.articlesCount = n;
    }
    for (const [id, n] of plan.tagCounts) {
      const g = t.tags.get(id);
      if (g) g.articlesCount = n;
    }
    for (const c of [...plan.userListChanges, ...plan.newsListChanges]) {
      const list = t.list(listName(c.list));
      if (c.entry) list.set(c.rank, copy(c.entry));
      else list.delete(c.rank);
    }
    t.newsTotal = plan.newsTotal;
    const total =
      plan.articles.length +
      plan.users.length +
      plan.tags.length +
      plan.userCounts.length +
      plan.tagCounts.length +
      plan.userListChanges.length +
      plan.newsListChanges.length +
      1;
    progress(total, total);
  }
}

export class MemoryStatusStore implements StatusStore {
  constructor(private readonly t: MemoryNewsTables) {}

  async addStatusCounts(shard: number, served: number, errors: number, now: number): Promise<void> {
    const s = this.t.shards.get(shard) ?? { served: 0, errors: 0 };
    this.t.shards.set(shard, {
      served: s.served + served,
      errors: s.errors + errors,
      startedAt: s.startedAt ?? now,
    });
  }

  async readStatusShards(shards: number): Promise<StatusShard[]> {
    return [...this.t.shards.entries()].filter(([i]) => i < shards).map(([, s]) => copy(s));
  }
}
