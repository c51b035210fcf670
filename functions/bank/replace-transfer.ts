// PUT /api/transfers/{transferId}: replace description and metadata (absent = cleared).
import { ok } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { cacheHeaders } from '#lib/bank/http/glue.ts';
import { transferPath } from '#lib/bank/params.ts';
import { replaceTransferBody } from '#lib/bank/schemas.ts';
import { transferUpdater } from '#lib/bank/wiring.ts';

export const handler = bankOperation(
  { path: transferPath, body: { schema: replaceTransferBody } },
  async (req) => {
    const transfer = await transferUpdater().replace(req.principal.userId, req.path.transferId, req.body);
    return ok(transfer, cacheHeaders(transfer));
  },
);
