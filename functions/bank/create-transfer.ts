// POST /api/transfers: create a transfer (201 + Location); Idempotency-Key; step-up over the threshold.
import { created } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { idempotent, stepUpHeader } from '#lib/bank/http/glue.ts';
import type { Transfer } from '#lib/bank/model.ts';
import { createTransferBody } from '#lib/bank/schemas.ts';
import { transferCreator } from '#lib/bank/wiring.ts';

const respond = (t: Transfer) => created(t, { Location: `/api/transfers/${t.id}` });

export const handler = bankOperation({ body: { schema: createTransferBody } }, (req) =>
  idempotent(req, respond, (complete, origin) =>
    transferCreator().create(req.principal.userId, req.body, {
      verificationId: stepUpHeader(req),
      complete,
      origin,
    }),
  ),
);
