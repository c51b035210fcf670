// The News ports: what the domain needs from storage. Adapters in ./adapters (dynamo-*: DynamoDB,
// memory-*: in memory for tests); ./wiring.ts picks them.
import type { Article, CatalogEntry, NewsUser, Tag } from './model.ts';

/** A list is the news list or one user's authored articles. */
export type ListRef = { kind: 'news' } | { kind: 'user'; userId: number };

/** One slot of a list to write (entry) or to delete (null). */
export interface RankChange {
  list: ListRef;
  rank: number;
  entry: CatalogEntry | null;
}

/** Everything one import writes; the adapter writes it in batches, the news list last. */
export interface ImportPlan {
  articles: Article[];
  users: NewsUser[];
  tags: Tag[];
  /** New articlesCount of stored users/tags that are not in the file. */
  userCounts: Array<[id: number, count: number]>;
  tagCounts: Array<[id: number, count: number]>;
  userListChanges: RankChange[];
  newsListChanges: RankChange[];
  /** Size of the news list (written on every news rank item and on its TOTAL item). */
  newsTotal: number;
}

export interface StatusShard {
  served: number;
  errors: number;
  startedAt?: number;
}

/** What the request path reads. */
export interface NewsReader {
  getArticle(id: number): Promise<Article | undefined>;
  getUser(id: number): Promise<NewsUser | undefined>;
  getTag(id: number): Promise<Tag | undefined>;
  /** Ids at ranks start..start+size-1 of the news list, and the list's size: one Query. */
  newsPage(start: number, size: number): Promise<{ ids: number[]; total: number }>;
  /** Ids at ranks start..start+size-1 of a user's articles: one Query. */
  userArticles(userId: number, start: number, size: number): Promise<number[]>;
}

/** What the import reads and writes. */
export interface ImportStore {
  /** The whole news list in rank order. */
  loadCatalog(): Promise<CatalogEntry[]>;
  /** Which of these user/tag ids are stored. */
  existingUsers(ids: number[]): Promise<Set<number>>;
  existingTags(ids: number[]): Promise<Set<number>>;
  applyImport(plan: ImportPlan, progress: (done: number, total: number) => void): Promise<void>;
}

/** The status counters' shards. */
export interface StatusStore {
  /** Adds to one counter shard; sets the shard's startedAt once. */
  addStatusCounts(shard: number, served: number, errors: number, now: number): Promise<void>;
  /** Every counter shard, in one request. */
  readStatusShards(shards: number): Promise<StatusShard[]>;
}
