// The runner's own endpoints, outside the template's APIs: the docs page at `/` (Swagger UI from
// the swagger-ui-dist package, no CDN), the OpenAPI documents (their first server is this runner),
// and note images at /_images/<key> (objects only, never a listing: CloudFront's part when deployed).
// To add one, write a LocalEndpoint and list it in localEndpoints().
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { IMAGE_KEY } from '../../lib/notes/images/adapters/s3-images.ts';
import { withSecurityHeaders } from './gateway.ts';
import { ROOT } from './template.ts';

export interface LocalEndpoint {
  matches(method: string, path: string): boolean;
  serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

export interface EndpointOptions {
  baseUrl: string;
  s3: S3Client;
  bucketName: string;
}

const require = createRequire(import.meta.url);
const SWAGGER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const DOCS_DIR = join(ROOT, 'infra', 'local', 'docs');
export const API_DOCUMENTS = ['notes', 'news', 'bank'] as const;

/** Headers of what the runner serves itself: no sniffing, and nothing the page did not ask for. */
const STATIC_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

async function send(res: ServerResponse, status: number, type: string, body: Buffer | string, extra = {}) {
  const headers = await withSecurityHeaders({ 'Content-Type': type, ...extra });
  res.writeHead(status, headers).end(body);
}

const notFound = (res: ServerResponse) => send(res, 404, 'text/plain; charset=utf-8', 'Not found');

const get = (prefix: string) => (method: string, path: string) =>
  (method === 'GET' || method === 'HEAD') && path.startsWith(prefix);

/**
 * GET /_images/<key>: the object with its stored content type; no listing, no HTML rendering.
 * `path` is the request path decoded once (the runner's). Only a well-formed image key is read
 * (IMAGE_KEY: `notes/<note id>/<name>.<ext>`, URL-safe characters only): an encoded `..` or `/`,
 * `%2e%2e`, a double encoding or a backslash can never name a key outside notes/ (the S3 emulator
 * stores objects as files, where `notes/../search/...` would resolve to the search index).
 */
export const images = (o: EndpointOptions): LocalEndpoint => ({
  matches: get('/_images/'),
  async serve(_req, res, path) {
    const key = path.slice('/_images/'.length);
    // Images only (notes/), as the distribution's bucket policy allows: search indexes stay private.
    if (!IMAGE_KEY.test(key)) return notFound(res);
    try {
      const obj = await o.s3.send(new GetObjectCommand({ Bucket: o.bucketName, Key: key }));
      const bytes = Buffer.from(await obj.Body!.transformToByteArray());
      await send(res, 200, obj.ContentType ?? 'application/octet-stream', bytes, {
        'Content-Length': String(bytes.length),
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Content-Security-Policy': "default-src 'none'",
        'X-Content-Type-Options': 'nosniff',
        // Embeddable in notes rendered on other origins, as from the CloudFront distribution.
        'Cross-Origin-Resource-Policy': 'cross-origin',
      });
    } catch {
      await notFound(res);
    }
  },
});

/** A loopback name with an optional port, as a Host header carries it: localhost, 127.x.y.z, [::1]. */
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i;

/**
 * This runner's URL as the caller reached it: the Host header when it names a loopback address (so
 * a page opened at http://127.0.0.1:PORT/ calls 127.0.0.1, its own origin, and needs no CORS), else
 * the runner's own URL. Any other Host is not trusted into a document.
 */
export const runnerOrigin = (host: string | undefined, baseUrl: string): string =>
  host && LOOPBACK_HOST.test(host) ? `http://${host}` : baseUrl;

/**
 * The committed OpenAPI document (its servers: the deployed stages) with this runner first, at the
 * origin the caller used (what "Try it out" calls).
 */
export function servedDocument(name: string, origin: string): unknown {
  const doc = JSON.parse(readFileSync(join(ROOT, 'openapi', `${name}.json`), 'utf8'));
  doc.servers = [{ url: origin, description: 'this local runner (npm start)' }, ...(doc.servers ?? [])];
  return doc;
}

export const openApi = (o: EndpointOptions): LocalEndpoint => ({
  matches: get('/openapi/'),
  async serve(req, res, path) {
    const name = /^\/openapi\/([a-z]+)\.json$/.exec(path)?.[1];
    if (!name || !(API_DOCUMENTS as readonly string[]).includes(name)) return notFound(res);
    const doc = servedDocument(name, runnerOrigin(req.headers.host, o.baseUrl));
    // The servers depend on the Host header: caches must not hand one origin's document to another.
    await send(res, 200, 'application/json', JSON.stringify(doc), {
      Vary: 'Host',
      'Cache-Control': 'no-cache',
    });
  },
});

const DOCS_FILES: Record<string, { file: string; type: string }> = {
  '/': { file: join(DOCS_DIR, 'index.html'), type: 'text/html; charset=utf-8' },
  '/_docs/init.js': { file: join(DOCS_DIR, 'init.js'), type: 'text/javascript; charset=utf-8' },
  '/favicon.ico': { file: join(DOCS_DIR, 'favicon.ico'), type: 'image/x-icon' },
  '/_docs/swagger-ui.css': { file: join(SWAGGER_DIR, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  '/_docs/swagger-ui-bundle.js': { file: join(SWAGGER_DIR, 'swagger-ui-bundle.js'), type: 'text/javascript' },
  '/_docs/swagger-ui-standalone-preset.js': {
    file: join(SWAGGER_DIR, 'swagger-ui-standalone-preset.js'),
    type: 'text/javascript',
  },
};

/** `/`: the three APIs in Swagger UI, "try it" calling this runner. */
export const docsPage = (): LocalEndpoint => ({
  matches: (method, path) => (method === 'GET' || method === 'HEAD') && path in DOCS_FILES,
  async serve(_req, res, path) {
    const { file, type } = DOCS_FILES[path];
    if (!existsSync(file)) return notFound(res);
    await send(res, 200, type, readFileSync(file), {
      'Content-Security-Policy': STATIC_CSP,
      'Cache-Control': 'no-cache',
    });
  },
});

export const localEndpoints = (o: EndpointOptions): LocalEndpoint[] => [docsPage(), openApi(o), images(o)];
