// POST /api/transfers/{transferId}: partial update (metadata merges; "" removes a key); Idempotency-Key.
import { ok } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { cacheHeaders, idempotent } from '#lib/bank/http/glue.ts';
import type { Transfer } from '#lib/bank/model.ts';
import { transferPath } from '#lib/bank/params.ts';
import { updateTransferBody } from '#lib/bank/schemas.ts';
import { transferUpdater } from '#lib/bank/wiring.ts';

const respond = (t: Transfer) => ok(t, cacheHeaders(t));

export const handler = bankOperation({ path: transferPath, body: { schema: updateTransferBody } }, (req) =>
  idempotent(req, respond, (complete) =>
    transferUpdater().update(req.principal.userId, req.path.transferId, req.body, complete),
  ),
);
