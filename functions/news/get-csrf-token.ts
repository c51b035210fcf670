// GET /api/internal/v1/csrf: a signed, expiring anti-forgery token for the internal edge only;
// any other caller gets the same 404 notFound as an unknown route. No DynamoDB request. Never cached
// (Cache-Control: no-store): a token is for the one caller that asked.
import { notFound, ok } from '#lib/http/news.ts';
import { issueCsrfToken } from '#lib/news/csrf.ts';
import { isFromInternalEdge } from '#lib/news/http/internal.ts';
import { newsOperation } from '#lib/news/http/operation.ts';
import { csrfSigningSecret } from '#lib/news/wiring.ts';

export const handler = newsOperation({}, async ({ headers }) => {
  if (!(await isFromInternalEdge(headers))) throw notFound('No route matches this method and path');
  return ok(issueCsrfToken(await csrfSigningSecret()), { 'Cache-Control': 'no-store' });
});
