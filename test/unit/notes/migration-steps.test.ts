// The layout steps of the Notes visit counter, history entries and API tokens: what each writes for
// an item of the old layout, and that an item brought to the new layout yields no writes (a scan
// that stops half-way may run again).
import { describe, expect, it } from 'vitest';
import type { MigrationItem, MigrationStep, MigrationWrite } from '../../../infra/admin/migrate/step.ts';
import { notesHistoryEntries } from '../../../infra/admin/migrate/steps/notes-history-entries.ts';
import { notesVisits } from '../../../infra/admin/migrate/steps/notes-visits.ts';

/** A table as a map of "PK|SK" → item, with the writes applied as DynamoDB would. */
function apply(table: Map<string, MigrationItem>, writes: MigrationWrite[]): void {
  const id = (k: { PK: string; SK: string }) => `${k.PK}|${k.SK}`;
  for (const w of writes) {
    if ('put' in w) table.set(id(w.put as { PK: string; SK: string }), { ...w.put });
    else if ('delete' in w) table.delete(id(w.delete));
    else {
      // An update changes an existing item; with whileExists it makes one, if that other item exists.
      const existing = table.get(id(w.update.key));
      if (w.update.whileExists ? !table.has(id(w.update.whileExists)) : !existing) continue;
      const item = { ...(existing ?? { ...w.update.key }), ...w.update.set };
      for (const name of w.update.remove ?? []) delete item[name];
      table.set(id(w.update.key), item);
    }
  }
}

/** Runs `step` over every item twice; returns the table and the second pass's writes. */
function migrate(step: MigrationStep, items: MigrationItem[]) {
  const table = new Map(items.map((i) => [`${i.PK}|${i.SK}`, { ...i }]));
  for (const item of [...table.values()]) apply(table, step.migrate(item));
  const again = [...table.values()].flatMap((i) => step.migrate(i));
  return { table, again };
}

const note = {
  id: 'n1',
  shortId: 'abc',
  ownerId: 'u1',
  userPath: 'alice',
  teamPath: null,
  title: 'Title',
  explicitTitle: false,
  tags: ['a'],
  description: 'd',
  createdAt: 1,
  lastChangedAt: 2,
  titleUpdatedAt: 2,
  tagsUpdatedAt: 2,
  lastChangeUser: { name: 'Alice', userPath: 'alice', photo: '', biography: null },
  publishType: 'view',
  publishedAt: null,
  permalink: null,
  readPermission: 'owner',
  writePermission: 'owner',
  commentPermission: 'everyone',
  suggestEditPermission: 'disabled',
  parentFolderId: null,
  origin: 'api',
  noteFeatures: {},
  version: 7,
  hooked: true,
};

describe('notes-visits', () => {
  it('a live note: CONTENT loses visitSeq, no counter item is needed', () => {
    const content = {
      PK: 'NOTE#abc',
      SK: 'NOTE#CONTENT',
      type: 'note-content',
      content: '# x',
      visitSeq: 12,
    };
    expect(notesVisits.migrate(content)).toEqual([
      { update: { key: { PK: 'NOTE#abc', SK: 'NOTE#CONTENT' }, remove: ['visitSeq', 'deletedAt'] } },
    ]);
    const { table, again } = migrate(notesVisits, [content]);
    expect(table.get('NOTE#abc|NOTE#CONTENT')).toEqual({
      PK: 'NOTE#abc',
      SK: 'NOTE#CONTENT',
      type: 'note-content',
      content: '# x',
    });
    expect(table.has('NOTE#abc|NOTE#VISITS')).toBe(false);
    expect(again).toEqual([]);
  });

  it("a trashed note: the trash's mark moves to the counter item, CONTENT keeps its ttl", () => {
    const content = {
      PK: 'NOTE#abc',
      SK: 'NOTE#CONTENT',
      type: 'note-content',
      content: '# x',
      visitSeq: 3,
      deletedAt: 1000,
      ttl: 99,
    };
    const meta = { PK: 'NOTE#abc', SK: 'NOTE#META', type: 'note', deletedAt: 1000, ttl: 99 };
    const { table, again } = migrate(notesVisits, [meta, content]);
    expect(table.get('NOTE#abc|NOTE#VISITS')).toEqual({
      PK: 'NOTE#abc',
      SK: 'NOTE#VISITS',
      type: 'note-visits',
      deletedAt: 1000,
      ttl: 99,
    });
    expect(table.get('NOTE#abc|NOTE#CONTENT')).toEqual({
      PK: 'NOTE#abc',
      SK: 'NOTE#CONTENT',
      type: 'note-content',
      content: '# x',
      ttl: 99,
    });
    expect(again).toEqual([]);
    // Purged meanwhile (no META left): no counter item is made for it.
    expect(migrate(notesVisits, [content]).table.has('NOTE#abc|NOTE#VISITS')).toBe(false);
  });

  it('leaves every other item alone', () => {
    expect(notesVisits.migrate({ PK: 'NOTE#abc', SK: 'NOTE#META', type: 'note', visitSeq: 1 })).toEqual([]);
    expect(notesVisits.migrate({ PK: 'NOTE#abc', SK: 'VISIT#u1', type: 'note-visit' })).toEqual([]);
  });
});

describe('notes-history-entries', () => {
  it("an entry keeps only the listing's fields of the note; its keys and time are untouched", () => {
    const entry = {
      PK: 'NOTE#abc',
      SK: 'VISIT#u2',
      GSI2PK: 'HISTORY#u2',
      GSI2SK: '0000000000002#abc',
      type: 'note-visit',
      userId: 'u2',
      visitedAt: 2,
      note,
    };
    const { table, again } = migrate(notesHistoryEntries, [entry]);
    const migrated = table.get('NOTE#abc|VISIT#u2')!;
    expect(migrated).toMatchObject({
      GSI2PK: 'HISTORY#u2',
      GSI2SK: '0000000000002#abc',
      userId: 'u2',
      visitedAt: 2,
    });
    const kept = migrated.note as Record<string, unknown>;
    for (const dropped of [
      'explicitTitle',
      'commentPermission',
      'suggestEditPermission',
      'origin',
      'noteFeatures',
      'version',
      'hooked',
    ])
      expect(kept).not.toHaveProperty(dropped);
    expect(kept).toMatchObject({
      id: 'n1',
      shortId: 'abc',
      title: 'Title',
      tags: ['a'],
      lastChangeUser: note.lastChangeUser,
      readPermission: 'owner',
    });
    expect(again).toEqual([]);
  });
});
