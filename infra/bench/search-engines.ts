// `npm run bench -- --search-engines [--notes 3000]`: the full-text engines compared on this machine
// (docs/search.md records the figures and the choice). Each engine indexes the same generated corpus
// (infra/bench/search-corpus.ts), given the same terms (lib/notes/search/text.ts: markdown stripped,
// accents folded, CJK bigrams), with title and tags weighted above the body, and answers the same
// queries with prefix search on the last word and one typo in words of five letters or more where it
// can. Each engine runs in a fresh process (heap measured after a forced GC): build time, serialized
// size (raw and gzip), load time of the serialized index, query p50/p95, heap of the loaded index, and
// the minified bundle of an entry that imports it (esbuild, as template.yaml builds functions).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { plainText, termsOf } from '../../lib/notes/search/text.ts';
import { corpus, random } from './search-corpus.ts';
import { percentile, table } from './stats.ts';

type Doc = { id: string; title: string; tags: string; text: string };
interface Engine {
  build(docs: Doc[]): Promise<unknown>;
  serialize(index: unknown): string | Uint8Array | Promise<Uint8Array>;
  load(data: any): Promise<unknown>; // each engine loads its own serialized form
  /** Memory a loaded index holds outside JavaScript's heap (an engine in WebAssembly), in MB. */
  outsideHeapMb?(data: Uint8Array): Promise<number>;
  /** Ids of the top 20 hits. */
  query(index: unknown, terms: string[]): Promise<string[]>;
}

const split = (s: string) => (s ? s.split(' ') : []);
const BOOST = { title: 3, tags: 2, text: 1 };

const engines: Record<string, () => Promise<Engine>> = {
  async sqlite() {
    // SQLite FTS5 (SQLite's own WebAssembly build), as lib/notes/search/engine.ts uses it: the same
    // tables, BM25 weights, one-edit and prefix expansion. The terms go in as text of words.
    const { NoteIndex } = await import('../../lib/notes/search/engine.ts');
    type Index = Awaited<ReturnType<typeof NoteIndex.empty>>;
    return {
      async build(docs) {
        const index = await NoteIndex.empty();
        for (const d of docs)
          index.upsert({
            shortId: d.id,
            title: d.title,
            tags: split(d.tags),
            content: d.text,
            parentFolderId: null,
            version: 1,
          });
        return index;
      },
      serialize: (index) => (index as Index).toBytes(),
      load: (bytes: Uint8Array) => NoteIndex.fromBytes(bytes),
      async query(index, terms) {
        const query = { terms, words: terms, phrases: [], prefix: true };
        return (index as Index).search(query, {}, 20).candidates.map((c: { shortId: string }) => c.shortId);
      },
      // A loaded segment is a copy of its bytes in the engine's memory.
      outsideHeapMb: async (data) => data.byteLength / 2 ** 20,
    };
  },
  async minisearch() {
    const { default: MiniSearch } = await import('minisearch');
    const options = {
      fields: ['title', 'tags', 'text'],
      tokenize: split,
      processTerm: (t: string) => t,
    };
    return {
      async build(docs) {
        const ms = new MiniSearch(options);
        ms.addAll(docs);
        return ms;
      },
      serialize: (index) => JSON.stringify(index),
      load: async (json) => MiniSearch.loadJSON(json, options),
      async query(index, terms) {
        return (index as InstanceType<typeof MiniSearch>)
          .search(terms.join(' '), {
            boost: BOOST,
            combineWith: 'AND',
            prefix: (_t, i, all) => i === all.length - 1,
            fuzzy: (t) => (t.length >= 5 ? 1 : 0),
          })
          .slice(0, 20)
          .map((r) => String(r.id));
      },
    };
  },
  async flexsearch() {
    const { Document } = await import('flexsearch');
    const options = {
      document: { id: 'id', index: ['title', 'tags', 'text'] },
      tokenize: 'forward' as const,
      encode: split,
    };
    return {
      async build(docs) {
        const index = new Document(options);
        for (const d of docs) index.add(d);
        return index;
      },
      serialize(index) {
        const parts: Record<string, string> = {};
        (index as InstanceType<typeof Document>).export((key: string, data: string) => {
          parts[key] = data;
        });
        return JSON.stringify(parts);
      },
      async load(json) {
        const index = new Document(options);
        for (const [key, data] of Object.entries(JSON.parse(json) as Record<string, string>))
          index.import(key, data);
        return index;
      },
      async query(index, terms) {
        // No typo tolerance, no BM25: fields are searched apart and merged by field weight.
        const byField = (index as InstanceType<typeof Document>).search(terms.join(' '), {
          limit: 20,
        }) as unknown as { field: string; result: string[] }[];
        const score = new Map<string, number>();
        for (const { field, result } of byField)
          for (const [rank, id] of result.entries())
            score.set(id, (score.get(id) ?? 0) + BOOST[field as keyof typeof BOOST] / (rank + 1));
        return [...score.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 20)
          .map(([id]) => id);
      },
    };
  },
  async orama() {
    const { create, insertMultiple, load, save, search } = await import('@orama/orama');
    const fresh = () =>
      create({
        schema: { title: 'string', tags: 'string', text: 'string' } as const,
        components: {
          tokenizer: { language: 'english', normalizationCache: new Map(), tokenize: split },
        },
      });
    return {
      async build(docs) {
        const db = fresh();
        await insertMultiple(db, docs);
        return db;
      },
      serialize: (index) => JSON.stringify(save(index as ReturnType<typeof fresh>)),
      async load(json) {
        const db = fresh();
        load(db, JSON.parse(json));
        return db;
      },
      async query(index, terms) {
        const r = await search(index as ReturnType<typeof fresh>, {
          term: terms.join(' '),
          properties: ['title', 'tags', 'text'],
          boost: BOOST,
          tolerance: 1,
          limit: 20,
        });
        return r.hits.map((h) => String(h.document.id));
      },
    };
  },
};

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/** One engine, in this process: prints one JSON line of figures. */
async function measure(name: string, count: number): Promise<void> {
  const engine = await engines[name]();
  const { notes, words } = corpus(count);
  const docs: Doc[] = notes.map((n, i) => ({
    id: String(i),
    title: termsOf(n.title).join(' '),
    tags: n.tags.flatMap(termsOf).join(' '),
    text: termsOf(plainText(n.content)).join(' '),
  }));
  const markdownBytes = notes.reduce((s, n) => s + Buffer.byteLength(n.content), 0);
  let t = performance.now();
  const built = await engine.build(docs);
  const buildMs = performance.now() - t;
  const data = await engine.serialize(built);
  const sizes = {
    raw: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength,
    gzip: gzipSync(data).length,
  };
  const before = heapMb();
  t = performance.now();
  const loaded = await engine.load(data);
  const loadMs = performance.now() - t;
  const heap = heapMb() - before + ((await engine.outsideHeapMb?.(data as Uint8Array)) ?? 0);
  const rand = random(7);
  const queries = Array.from({ length: 200 }, (_, i) => {
    const w = () => termsOf(words[Math.floor(rand() * 2000)]);
    const q = [...w(), ...w()].slice(0, 3);
    // Every fourth query: its last word cut to a prefix; every fifth: a typo in its first word.
    if (i % 4 === 0) q[q.length - 1] = q[q.length - 1].slice(0, 3);
    if (i % 5 === 0 && q[0].length >= 5) q[0] = `${q[0].slice(0, 2)}x${q[0].slice(3)}`;
    return q;
  });
  const times: number[] = [];
  let hits = 0;
  for (const q of queries) {
    t = performance.now();
    hits += (await engine.query(loaded, q)).length;
    times.push(performance.now() - t);
  }
  console.log(
    JSON.stringify({
      name,
      notes: count,
      markdownMb: markdownBytes / 2 ** 20,
      buildMs,
      rawMb: sizes.raw / 2 ** 20,
      gzipMb: sizes.gzip / 2 ** 20,
      loadMs,
      heapMb: heap,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      hitsPerQuery: hits / queries.length,
    }),
  );
}

async function bundleKb(name: string, dir: string): Promise<number> {
  const pkg = {
    sqlite: '@sqlite.org/sqlite-wasm',
    minisearch: 'minisearch',
    flexsearch: 'flexsearch',
    orama: '@orama/orama',
  }[name];
  const entry = join(dir, `${name}.mjs`);
  // SQLite ships its WebAssembly beside its code: the bundle embeds it, as the functions' do.
  const wasm = name === 'sqlite' ? `import wasm from '${pkg}/sqlite3.wasm';\nexport { wasm };\n` : '';
  writeFileSync(entry, `import * as engine from '${pkg}';\nexport default engine;\n${wasm}`);
  const r = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    format: name === 'sqlite' ? 'esm' : 'cjs',
    target: 'es2023',
    loader: { '.wasm': 'binary' },
    write: false,
    nodePaths: [join(process.cwd(), 'node_modules')],
  });
  return r.outputFiles[0].contents.length / 1024;
}

/** Every engine, each in its own process; prints the table. */
export async function compareEngines(count: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'search-engines-'));
  const head = [
    'engine',
    'build',
    'index (gzip)',
    'load',
    'heap',
    'query p50',
    'query p95',
    'hits/q',
    'bundle',
  ];
  const rows: string[][] = [];
  try {
    let markdownMb = 0;
    for (const name of Object.keys(engines)) {
      process.stderr.write(`search engines: ${name}…\n`);
      const out = execFileSync(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', import.meta.filename, '--engine', name, '--notes', String(count)],
        { encoding: 'utf8', maxBuffer: 2 ** 24 },
      );
      const m = JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
      markdownMb = m.markdownMb;
      rows.push([
        name,
        `${(m.buildMs / 1000).toFixed(2)} s`,
        `${m.rawMb.toFixed(1)} MB (${m.gzipMb.toFixed(1)} MB)`,
        `${m.loadMs.toFixed(0)} ms`,
        `${m.heapMb.toFixed(0)} MB`,
        `${m.p50.toFixed(2)} ms`,
        `${m.p95.toFixed(2)} ms`,
        m.hitsPerQuery.toFixed(1),
        `${(await bundleKb(name, dir)).toFixed(0)} KB`,
      ]);
    }
    console.log(
      `\nSearch engines (${count} notes, ${markdownMb.toFixed(1)} MB of markdown; node ${process.version})\n`,
    );
    console.log(table(head, rows));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const engineArg = process.argv.indexOf('--engine');
if (engineArg > 0) {
  const notesArg = process.argv.indexOf('--notes');
  await measure(process.argv[engineArg + 1], Number(process.argv[notesArg + 1] ?? 3000));
}
