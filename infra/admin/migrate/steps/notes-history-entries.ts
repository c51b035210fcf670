// Layout change: a history entry (NOTE#<shortId> / VISIT#<userId>) keeps only what the history
// listing shows of the note (HISTORY_FIELDS in lib/notes/kernel/adapters/note-items.ts), not a copy of
// the whole note record: smaller entries, and so smaller index entries of GSI2.
import { HISTORY_FIELDS, historyEntry } from '../../../../lib/notes/kernel/adapters/note-items.ts';
import type { MigrationItem, MigrationStep, MigrationWrite } from '../step.ts';

const kept = new Set<string>(HISTORY_FIELDS);

export const notesHistoryEntries: MigrationStep = {
  name: 'notes-history-entries',
  describe: 'history entries keep only the fields the history listing shows',
  migrate(item: MigrationItem): MigrationWrite[] {
    const note = item.note as Record<string, unknown> | undefined;
    if (item.type !== 'note-visit' || !note || Object.keys(note).every((f) => kept.has(f))) return [];
    return [
      { update: { key: { PK: String(item.PK), SK: String(item.SK) }, set: { note: historyEntry(note) } } },
    ];
  },
};
