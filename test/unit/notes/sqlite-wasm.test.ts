// The SQLite engine the search runs on, as a test imports it: the module that embeds sqlite3.wasm in
// the bundles (lib/notes/search/adapters/sqlite-wasm.ts) is the file's bytes here too
// (test/support/wasm-binary.ts), and SQLite starts from them with FTS5.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { expect, it } from 'vitest';
import { sqliteWasm } from '#lib/notes/search/adapters/sqlite-wasm.ts';

// Emscripten's module options (wasmBinary: the engine's bytes), which the package's types leave out.
const init = sqlite3InitModule as (options: {
  wasmBinary: Uint8Array;
}) => ReturnType<typeof sqlite3InitModule>;

it('the embedded engine is sqlite3.wasm, and SQLite starts from it with full-text search', async () => {
  const file = createRequire(import.meta.url).resolve('@sqlite.org/sqlite-wasm/sqlite3.wasm');
  expect(sqliteWasm).toBeInstanceOf(Uint8Array);
  expect(Buffer.from(sqliteWasm).equals(readFileSync(file))).toBe(true);
  const sqlite3 = await init({ wasmBinary: sqliteWasm });
  const db = new sqlite3.oo1.DB(':memory:');
  try {
    db.exec(
      "CREATE VIRTUAL TABLE notes USING fts5(body); INSERT INTO notes VALUES ('a quick fox'), ('a lazy dog');",
    );
    expect(db.selectValues("SELECT body FROM notes WHERE notes MATCH 'fox'")).toEqual(['a quick fox']);
  } finally {
    db.close();
  }
});
