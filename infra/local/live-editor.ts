// The live editor example (examples/live/editor.html), served by the runner at /_live/editor so two
// browser tabs can type into one note: the page, and its script bundled by esbuild (CodeMirror,
// y-codemirror.next, yjs, y-protocols, the example provider and the note page's markdown renderer
// and sanitiser) on first request. Its own origin only: the page calls the Notes API at /v1,
// connects to ws://<this host>/_live and shows images from this origin's /_images.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { LocalEndpoint } from './endpoints.ts';
import { withSecurityHeaders } from './gateway.ts';
import { ROOT } from './template.ts';

const DIR = join(ROOT, 'examples', 'live');
const PAGE = '/_live/editor';
const SCRIPT = '/_live/editor.js';

/**
 * The renderer's sanitiser reads the image host from lib/config.ts (Node only): in the page it is
 * the runner's own `/_images`, as the functions' IMAGE_BASE_URL is locally (infra/local/stack.ts).
 */
const browserConfig: Plugin = {
  name: 'browser-config',
  setup(b) {
    b.onResolve({ filter: /\/config\.ts$/ }, (args) =>
      args.importer.includes(join('lib', 'notes', 'pages'))
        ? { path: 'config', namespace: 'browser-config' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'browser-config' }, () => ({
      contents: "export const config = { get imageBaseUrl() { return location.origin + '/_images'; } };",
      loader: 'js',
    }));
  },
};

let script: Promise<string> | undefined;
const bundle = () =>
  build({
    entryPoints: [join(DIR, 'editor.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    plugins: [browserConfig],
    write: false,
    logLevel: 'silent',
  }).then((r) => r.outputFiles[0].text);

export const liveEditor = (): LocalEndpoint => ({
  matches: (method, path) => (method === 'GET' || method === 'HEAD') && (path === PAGE || path === SCRIPT),
  async serve(req, res, path) {
    const host = req.headers.host ?? 'localhost';
    const csp =
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; " +
      `connect-src 'self' ws://${host}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
    let body: string;
    let type: string;
    if (path === PAGE) {
      body = readFileSync(join(DIR, 'editor.html'), 'utf8');
      type = 'text/html; charset=utf-8';
    } else {
      script ??= bundle();
      body = await script.catch((err) => {
        script = undefined;
        throw err;
      });
      type = 'text/javascript; charset=utf-8';
    }
    const headers = await withSecurityHeaders({
      'Content-Type': type,
      'Content-Security-Policy': csp,
      'Cache-Control': 'no-cache',
    });
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
  },
});
