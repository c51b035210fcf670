// PUT /api/transfers/{transferId}: replace description and metadata (absent = cleared).
import { ok, restOperation } from '#lib/http/rest.ts';
import { cacheHeaders } from '#lib/bank/http.ts';
import { replaceTransferBody, transferPath } from '#lib/bank/schemas.ts';
import { transfers } from '#lib/bank/service.ts';

export const handler = restOperation({ auth: true, path: transferPath, body: { schema: replaceTransferBody } }, async (req) => {
  const transfer = await transfers.replace(req.principal.userId, req.path.transferId, req.body);
  return ok(transfer, cacheHeaders(transfer));
});
