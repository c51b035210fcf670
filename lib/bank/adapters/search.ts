import type { TransferRecord } from '../model.ts';

/** Lower-case text `q` searches: description and metadata values (destination is kept apart). */
export const searchText = (t: TransferRecord): string =>
  [t.description ?? '', ...Object.values(t.metadata)].join('\n').toLowerCase();
