import {
  MemoryImportStore,
  MemoryNewsReader,
  MemoryNewsTables,
  MemoryStatusStore,
} from '../../lib/news/adapters/memory-news.ts';
import { newsContract } from './news.ts';

newsContract(
  'in memory',
  () => {
    const t = new MemoryNewsTables();
    return {
      reader: new MemoryNewsReader(t),
      imports: new MemoryImportStore(t),
      status: new MemoryStatusStore(t),
    };
  },
  0,
);
