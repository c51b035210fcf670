// A test's import of a `.wasm` file (lib/notes/search/adapters/sqlite-wasm.ts) is the file's bytes, a
// Uint8Array, as in the bundles, where esbuild's binary loader embeds it (BuildProperties Loader
// `.wasm=binary`, infra/deploy/build.ts). Without this, the import would be handed to Node, which
// cannot import a .wasm file as bytes. Used by every project of vitest.config.ts.
import type { Plugin } from 'vite';

const PREFIX = '\0wasm-binary:';

export function wasmBinary(): Plugin {
  return {
    name: 'wasm-binary',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!source.endsWith('.wasm') || source.startsWith(PREFIX)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      // The path encoded: an id naming node_modules/ would be left to Node (vitest externalizes it).
      return resolved ? `${PREFIX}${encodeURIComponent(resolved.id)}` : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = JSON.stringify(decodeURIComponent(id.slice(PREFIX.length)));
      return `import { readFileSync } from 'node:fs';\nexport default new Uint8Array(readFileSync(${file}));\n`;
    },
  };
}
