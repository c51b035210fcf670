// Layout change: a note's visit counter leaves CONTENT for a small item of its own (NOTE#VISITS,
// lib/data/keys.ts), so a read no longer rewrites the content. CONTENT loses `visitSeq`, and the
// `deletedAt` a trash used to put on it: a trashed note's counter item carries `deletedAt` (and
// CONTENT's `ttl`), so a late read still cannot add a history entry. A live note needs no counter
// item (absent means no visit counted yet). Run after the code that reads the new layout is
// deployed: that code ignores CONTENT's old attributes, so the step may run while it serves.
import type { MigrationItem, MigrationStep, MigrationWrite } from '../step.ts';

const CONTENT_SK = 'NOTE#CONTENT';
const VISITS_SK = 'NOTE#VISITS';
const META_SK = 'NOTE#META';

export const notesVisits: MigrationStep = {
  name: 'notes-visits',
  describe: "moves a note's visit counter and trash mark from NOTE#CONTENT to NOTE#VISITS",
  migrate(item: MigrationItem): MigrationWrite[] {
    if (item.SK !== CONTENT_SK || (item.visitSeq === undefined && item.deletedAt === undefined)) return [];
    const key = { PK: String(item.PK), SK: String(item.SK) };
    const writes: MigrationWrite[] = [];
    if (item.deletedAt !== undefined)
      writes.push({
        update: {
          key: { PK: key.PK, SK: VISITS_SK },
          set: {
            type: 'note-visits',
            deletedAt: item.deletedAt,
            ...(item.ttl === undefined ? {} : { ttl: item.ttl }),
          },
          // The first layout had no counter item: made here, unless the note was purged meanwhile.
          whileExists: { PK: key.PK, SK: META_SK },
        },
      });
    writes.push({ update: { key, remove: ['visitSeq', 'deletedAt'] } });
    return writes;
  },
};
