// GET /api/internal/v1/csrf: a signed, expiring anti-forgery token for the internal edge only;
// any other caller gets the same 404 notFound as an unknown route. No DynamoDB request.
import { config } from '#lib/config.ts';
import { issueCsrfToken, isInternalRequest } from '#lib/news/csrf.ts';
import { notFound, ok } from '#lib/http/news.ts';
import { newsOperation } from '#lib/news/http/operation.ts';

export const handler = newsOperation({}, async ({ headers }) => {
  const internal = isInternalRequest(
    { origin: headers.origin, host: headers.host, key: headers.key, secFetchSite: headers['sec-fetch-site'], secFetchMode: headers['sec-fetch-mode'] },
    { edgeOrigin: config.internalEdgeOrigin, apiHost: config.internalApiHost, apiKey: config.internalApiKey },
  );
  if (!internal) throw notFound('No route matches this method and path');
  return ok(issueCsrfToken(config.csrfSigningSecret));
});
