// For the bundled functions that search or index: SQLite started from the WebAssembly their bundle
// embeds (adapters/sqlite-wasm.ts; docs/deploy.md, "How functions are built"). Imported before the
// search wiring by functions/notes/search-notes.ts and index-notes.ts; the admin CLI and the tests
// start SQLite from the package's own file instead.
import { sqliteWasm } from './adapters/sqlite-wasm.ts';
import { useWasmBinary } from './sqlite.ts';

useWasmBinary(sqliteWasm);
