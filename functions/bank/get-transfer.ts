// GET /api/transfers/{transferId}: one of the caller's transfers, with ETag/Last-Modified and 304.
import { ok, notModified } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { cacheHeaders, isNotModified } from '#lib/bank/http/glue.ts';
import { transferPath } from '#lib/bank/params.ts';
import { transferLookup } from '#lib/bank/wiring.ts';

export const handler = bankOperation({ path: transferPath }, async (req) => {
  const transfer = await transferLookup().get(req.principal.userId, req.path.transferId);
  const headers = cacheHeaders(transfer);
  return isNotModified(req, headers, transfer.updated) ? notModified(headers) : ok(transfer, headers);
});
