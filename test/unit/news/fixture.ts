// The News domain over the in-memory adapters and a fixed clock.
import { FixedClock } from '../../../lib/domain/clock.ts';
import {
  MemoryImportStore,
  MemoryNewsReader,
  MemoryNewsTables,
  MemoryStatusStore,
} from '../../../lib/news/adapters/memory-news.ts';
import { StatusCounters } from '../../../lib/news/counters.ts';
import { NewsService, StatusService } from '../../../lib/news/service.ts';

export const START_MS = 1_800_000_000_000;

export function newsWorld() {
  const clock = new FixedClock(START_MS);
  const tables = new MemoryNewsTables();
  const statusStore = new MemoryStatusStore(tables);
  const counters = new StatusCounters(statusStore, clock);
  return {
    clock,
    tables,
    counters,
    statusStore,
    imports: new MemoryImportStore(tables),
    news: new NewsService(new MemoryNewsReader(tables)),
    status: new StatusService(statusStore, counters, clock),
  };
}

export const privacy = (level: 0 | 1) => ({
  lastOnline: level,
  name: level,
  surname: level,
  nickname: level,
  dateOfBirth: level,
  bio: level,
  articles: level,
});

export const user = (id: number, level: 0 | 1 = 1) => ({
  id,
  created: 1,
  updated: 2,
  name: 'Ada',
  dateOfBirth: 1_000_000,
  privacy: privacy(level),
});

export const article = (id: number, created: number, authors = [1], tags: number[] = []) => ({
  id,
  authors,
  created,
  updated: created,
  body: `Body of ${id}.`,
  tags,
});
