// The News page's examples: every public route (no token) and the internal edge's anti-forgery token.
import { request } from 'node:http';
import type { Context, Page } from './capture.ts';

const NO_TOKEN = { token: null };
const EDGE = { origin: 'https://edge.internal.localhost', host: 'api.internal.localhost' };

export async function newsExamples(p: Page, ctx: Context): Promise<void> {
  p.text('The public routes need no token. Every body is `{"error": bool, "response": ...}`.');
  await p.call('A page of news: `GET /api/v1/news`', 'GET', '/api/v1/news?page=1&perPage=3', NO_TOKEN);
  await p.call(
    'The latest articles: `GET /api/v1/news/latest`',
    'GET',
    '/api/v1/news/latest?count=2',
    NO_TOKEN,
  );
  await p.call('One article: `GET /api/v1/news/{id}`', 'GET', '/api/v1/news/1', NO_TOKEN);
  await p.call(
    'Its summary: `GET /api/v1/news/{id}/summary`',
    'GET',
    '/api/v1/news/1/summary?excerpt=true',
    NO_TOKEN,
  );
  await p.call('A user, privacy applied: `GET /api/v1/users/{id}`', 'GET', '/api/v1/users/2', NO_TOKEN);
  await p.call(
    "A user's summary: `GET /api/v1/users/{id}/summary`",
    'GET',
    '/api/v1/users/2/summary',
    NO_TOKEN,
  );
  await p.call('A tag with its articles: `GET /api/v1/tags/{id}`', 'GET', '/api/v1/tags/1', NO_TOKEN);
  await p.call("A tag's summary: `GET /api/v1/tags/{id}/summary`", 'GET', '/api/v1/tags/1/summary', NO_TOKEN);
  await p.call('Live counters: `GET /api/v1/status/web-api`', 'GET', '/api/v1/status/web-api', NO_TOKEN);
  await p.call('An unknown article', 'GET', '/api/v1/news/999999', NO_TOKEN);
  await p.call(
    'A parameter that is not a canonical positive integer',
    'GET',
    '/api/v1/news?page=01',
    NO_TOKEN,
  );

  // fetch may not set Host, which tells the internal API from the public one: node:http can.
  const answer = await new Promise<{ status: number; text: string; body: string }>((resolve, reject) => {
    const req = request(
      `${ctx.base}/api/internal/v1/csrf`,
      { headers: { Origin: EDGE.origin, Host: EDGE.host, Key: ctx.internalKey } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: res.statusMessage ?? '', body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
  p.lines.push('#### The anti-forgery token for the internal edge: `GET /api/internal/v1/csrf`', '');
  p.text(
    'Only the internal edge may ask: its `Origin`, the internal `Host` and the internal API key ' +
      '(printed by `npm start`; deployed, the `InternalApiKey` parameter). Any other caller gets the same ' +
      '404 as an unknown route.',
  );
  p.block(
    'sh',
    `curl -s 'http://localhost:3000/api/internal/v1/csrf' \\\n  -H 'Origin: ${EDGE.origin}' \\\n  -H 'Host: ${EDGE.host}' \\\n  -H "Key: $INTERNAL_KEY"`,
  );
  p.block(
    'http',
    `HTTP/1.1 ${answer.status} ${answer.text}\n\n${JSON.stringify(JSON.parse(answer.body), null, 2)}`,
  );
}
