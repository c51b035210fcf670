// The SQLite engine's WebAssembly, embedded in the bundle of each function that searches or indexes
// (BuildProperties Loader .wasm=binary; docs/deploy.md): a bundled ES module would otherwise look for
// sqlite3.wasm beside itself, which no bundle ships.
import wasm from '@sqlite.org/sqlite-wasm/sqlite3.wasm';

export const sqliteWasm: Uint8Array = wasm;
