// The migration steps, in the order `npm run admin -- migrate` runs them (one table scan each).
// A new layout change adds its step at the end; a step stays here once released (a deployed table
// may still be on any earlier layout), and must stay idempotent (infra/admin/migrate/step.ts).
import type { MigrationStep } from '../step.ts';
import { notesHistoryEntries } from './notes-history-entries.ts';
import { notesVisits } from './notes-visits.ts';
import { tokenIndexKeys } from './token-index-keys.ts';

export const STEPS: MigrationStep[] = [tokenIndexKeys, notesVisits, notesHistoryEntries];
