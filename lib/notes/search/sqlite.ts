// The search engine's SQLite: SQLite's own WebAssembly build (@sqlite.org/sqlite-wasm, with FTS5),
// started once per process, on first use. A bundled function hands it the WebAssembly binary its
// bundle embeds (adapters/sqlite-wasm.ts); anywhere else the package finds its own file.
import init, { type Sqlite3Static } from '@sqlite.org/sqlite-wasm';

let wasmBinary: Uint8Array | undefined;
let started: Promise<Sqlite3Static> | undefined;

/** The WebAssembly binary to start SQLite from (before its first use). */
export function useWasmBinary(bytes: Uint8Array): void {
  if (!started) wasmBinary = bytes;
}

/** SQLite, started. */
export const sqlite = (): Promise<Sqlite3Static> =>
  (started ??= (init as (module?: { wasmBinary: Uint8Array }) => Promise<Sqlite3Static>)(
    wasmBinary ? { wasmBinary } : undefined,
  ));
