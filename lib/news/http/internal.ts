// Whether a request comes from the internal edge: its Origin, Host and Key headers against the
// configured ones, and no browser fetch metadata (lib/news/csrf.ts decides). The key is a secret
// (Secrets Manager, read once per container).
import { config } from '../../config.ts';
import { isInternalRequest } from '../csrf.ts';
import { internalApiKey } from '../wiring.ts';

export const isFromInternalEdge = async (headers: Record<string, string | undefined>): Promise<boolean> =>
  isInternalRequest(
    {
      origin: headers.origin,
      host: headers.host,
      key: headers.key,
      secFetchSite: headers['sec-fetch-site'],
      secFetchMode: headers['sec-fetch-mode'],
    },
    {
      edgeOrigin: config.internalEdgeOrigin,
      apiHost: config.internalApiHost,
      apiKey: await internalApiKey(),
    },
  );
