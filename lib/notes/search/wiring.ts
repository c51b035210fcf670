// The search feature's wiring: the search route's service and the stream function's indexer, each
// built on first use (the indexer is the only one that lists a workspace's notes).
import type { DynamoDBRecord } from 'aws-lambda';
import { once } from '../../domain/once.ts';
import { directory } from '../../identity/wiring.ts';
import { dynamoNoteSource, getNotes } from './adapters/dynamo-note-source.ts';
import { s3IndexReader, s3IndexStore } from './adapters/s3-index-store.ts';
import { changedNotes } from './adapters/stream-notes.ts';
import { SearchIndexer } from './indexer.ts';
import { LoadedIndexes } from './loaded-indexes.ts';
import { SearchService } from './service.ts';

export const noteSearch = /* @__PURE__ */ once(
  () =>
    new SearchService({
      directory: directory(),
      // Heads read once serve the searches of the next second (docs/search.md, "Fresh").
      candidates: new LoadedIndexes(s3IndexReader, 1000),
      notes: { getNotes },
    }),
);

export const searchIndexer = /* @__PURE__ */ once(
  () => new SearchIndexer({ indexes: s3IndexStore, notes: dynamoNoteSource }),
);

/** The stream function: each workspace's changed notes into its index, one workspace after another. */
export async function indexTableChanges(records: DynamoDBRecord[]): Promise<void> {
  for (const [workspace, shortIds] of changedNotes(records)) await searchIndexer().apply(workspace, shortIds);
}
