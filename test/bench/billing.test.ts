// The pricing rules of infra/bench/billing.ts on hand-worked cases (what AWS bills in on-demand mode).
import { describe, expect, it } from 'vitest';
import {
  conditionCheckUnits,
  failedWriteUnits,
  getItemUnits,
  indexWriteUnits,
  itemSize,
  itemWriteUnits,
  queryUnits,
  type StoredItem,
  type TableShape,
  valueSize,
} from '../../infra/bench/billing.ts';

/** An item of exactly `bytes` bytes: PK (2 + 1), SK (2 + 1), data (4 + the rest). */
const item = (bytes: number, extra: StoredItem = {}): StoredItem => {
  const base: StoredItem = { PK: { S: 'a' }, SK: { S: 'b' }, ...extra };
  const rest = bytes - itemSize(base) - 4;
  return { ...base, data: { S: 'x'.repeat(rest) } };
};

const plain: TableShape = { keys: ['PK', 'SK'], indexes: [] };
const gsi = (projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE', include?: string[]): TableShape => ({
  keys: ['PK', 'SK'],
  indexes: [{ name: 'GSI1', keys: ['GSI1PK', 'GSI1SK'], projection, include }],
});

describe('item sizes', () => {
  it('counts names and values by type', () => {
    expect(itemSize(item(500))).toBe(500);
    expect(valueSize({ S: 'héllo' })).toBe(6); // UTF-8 bytes
    expect(valueSize({ N: '12345' })).toBe(4); // 5 significant digits: 3 bytes + 1
    expect(valueSize({ N: '-1.50' })).toBe(3); // "15": 1 byte + 1, + 1 for the sign
    expect(valueSize({ N: '1000' })).toBe(2); // trailing zeroes trimmed
    expect(valueSize({ B: new Uint8Array(10) })).toBe(10);
    expect(valueSize({ BOOL: true })).toBe(1);
    expect(valueSize({ NULL: true })).toBe(1);
    expect(valueSize({ L: [] })).toBe(3);
    expect(valueSize({ M: {} })).toBe(3);
    // A list: 3 + per element 1 + its value; a map: 3 + per element 1 + its name + its value.
    expect(valueSize({ L: [{ S: 'ab' }, { N: '7' }] })).toBe(3 + (1 + 2) + (1 + 2));
    expect(valueSize({ M: { id: { S: 'abc' }, ok: { BOOL: false } } })).toBe(3 + (1 + 2 + 3) + (1 + 2 + 1));
    expect(valueSize({ SS: ['a', 'bc'] })).toBe(3);
  });
});

describe('write units', () => {
  it('a 500 B one-item transaction bills 2', () => {
    expect(itemWriteUnits({ after: item(500) }, plain, { transaction: true })).toBe(2);
    expect(itemWriteUnits({ after: item(500) }, plain)).toBe(1);
  });

  it('a 4.2 KB put bills 5', () => {
    expect(itemWriteUnits({ after: item(4300) }, plain)).toBe(5);
  });

  it('bills the larger of the item before and after', () => {
    expect(itemWriteUnits({ before: item(3000), after: item(100) }, plain)).toBe(3);
    expect(itemWriteUnits({ before: item(3000) }, plain)).toBe(3); // a delete
    expect(itemWriteUnits({}, plain)).toBe(1); // a delete of nothing still bills 1
  });

  it('an update that moves a GSI key is a delete plus a put at the projected size', () => {
    const before = item(3000, { GSI1PK: { S: 'P' }, GSI1SK: { S: '1' } });
    const after = item(3000, { GSI1PK: { S: 'P' }, GSI1SK: { S: '2' } });
    // KEYS_ONLY: the index holds PK, SK, GSI1PK, GSI1SK (a few bytes): 1 to delete, 1 to put.
    expect(indexWriteUnits(before, after, gsi('KEYS_ONLY'), gsi('KEYS_ONLY').indexes[0])).toBe(2);
    expect(itemWriteUnits({ before, after }, gsi('KEYS_ONLY'))).toBe(3 + 2);
    // ALL: the whole item twice.
    expect(itemWriteUnits({ before, after }, gsi('ALL'))).toBe(3 + 3 + 3);
    // In a transaction only the table's part doubles.
    expect(itemWriteUnits({ before, after }, gsi('KEYS_ONLY'), { transaction: true })).toBe(6 + 2);
  });

  it('an index bills nothing when its keys are absent on both sides or nothing it holds changes', () => {
    const shape = gsi('INCLUDE', ['title']);
    expect(itemWriteUnits({ before: item(100), after: item(200) }, shape)).toBe(1);
    const keyed = (data: number, title: string) =>
      item(data, { GSI1PK: { S: 'P' }, GSI1SK: { S: '1' }, title: { S: title } });
    // data is not projected: the index entry is unchanged.
    expect(itemWriteUnits({ before: keyed(100, 't'), after: keyed(2000, 't') }, shape)).toBe(2);
    // title is projected: one update of the entry.
    expect(itemWriteUnits({ before: keyed(100, 't'), after: keyed(100, 'u') }, shape)).toBe(1 + 1);
    // ALL copies a counter: every bump of it writes the index too.
    const counter = (n: string) => ({ ...keyed(100, 't'), count: { N: n } });
    expect(itemWriteUnits({ before: counter('1'), after: counter('2') }, gsi('ALL'))).toBe(2);
    expect(itemWriteUnits({ before: item(100), after: item(100, { count: { N: '2' } }) }, gsi('ALL'))).toBe(
      1,
    );
    // A new entry is a put; a removed one a delete.
    expect(itemWriteUnits({ before: item(100), after: keyed(100, 't') }, shape)).toBe(2);
    expect(itemWriteUnits({ before: keyed(100, 't') }, shape)).toBe(2);
  });

  it('failed conditions and condition checks bill the checked item', () => {
    expect(failedWriteUnits(item(2500))).toBe(3);
    expect(failedWriteUnits(undefined)).toBe(1);
    expect(failedWriteUnits(item(500), { transaction: true })).toBe(2);
    expect(conditionCheckUnits(item(500))).toBe(2);
  });
});

describe('read units', () => {
  it('an eventually consistent Query returning 8 KB bills 1', () => {
    expect(queryUnits([item(4096), item(4096)])).toBe(1);
    expect(queryUnits([item(4096), item(4096)], { consistent: true })).toBe(2);
  });

  it('a Query rounds once per request, a GetItem per item; an absent item bills the minimum', () => {
    expect(queryUnits(Array.from({ length: 10 }, () => item(100)))).toBe(0.5);
    expect(queryUnits([])).toBe(0.5);
    expect(getItemUnits(item(100), { consistent: true })).toBe(1);
    expect(getItemUnits(item(4097), { consistent: true })).toBe(2);
    expect(getItemUnits(undefined)).toBe(0.5);
    expect(getItemUnits(item(100), { transaction: true })).toBe(2);
  });
});
