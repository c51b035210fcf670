// One step of a table migration (docs/deploy.md, "Upgrading a deployed table"). The admin command
// `npm run admin -- migrate` scans the table once per step and applies each step to every item;
// a step must be idempotent (an item already in the new layout yields no writes), so a scan that
// stops half-way can be run again from its checkpoint or from the start.
export type MigrationItem = Record<string, unknown>;

export type MigrationWrite =
  | { put: MigrationItem }
  | { delete: { PK: string; SK: string } }
  | {
      /**
       * Changes an existing item (never recreates one deleted meanwhile); with `whileExists`, makes
       * the item if it is absent, in one transaction with a check that that other item (e.g. the
       * note's META) still exists.
       */
      update: {
        key: { PK: string; SK: string };
        set?: MigrationItem;
        remove?: string[];
        whileExists?: { PK: string; SK: string };
      };
    };

export interface MigrationStep {
  /** Stable name, recorded in the checkpoint when the step is complete. */
  name: string;
  /** What it changes, one line, printed by the command. */
  describe: string;
  /** The writes that bring one item (unmarshalled, as scanned) to the new layout; [] when there is nothing to do. */
  migrate(item: MigrationItem): MigrationWrite[];
}
