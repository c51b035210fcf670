// PUT /api/transfers/{transferId}: replace description and metadata (absent = cleared).
import { ok, restOperation } from '#lib/http/rest.ts';
import { authenticate } from '#lib/identity/wiring.ts';
import { cacheHeaders } from '#lib/bank/http/glue.ts';
import { replaceTransferBody, transferPath } from '#lib/bank/schemas.ts';
import { transfers } from '#lib/bank/wiring.ts';

export const handler = restOperation({ auth: authenticate, path: transferPath, body: { schema: replaceTransferBody } }, async (req) => {
  const transfer = await transfers().replace(req.principal.userId, req.path.transferId, req.body);
  return ok(transfer, cacheHeaders(transfer));
});
