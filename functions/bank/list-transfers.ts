// GET /api/transfers: the caller's transfers, paged, sorted, filtered and searched; Link header.
import { ok } from '#lib/http/rest.ts';
import { bankOperation } from '#lib/bank/http/operation.ts';
import { listParams, pageLinks } from '#lib/bank/http/glue.ts';
import { listTransfersQuery } from '#lib/bank/schemas.ts';
import { transferLister } from '#lib/bank/wiring.ts';

export const handler = bankOperation({ query: listTransfersQuery }, async (req) => {
  const page = await transferLister().list(req.principal.userId, listParams(req.query));
  return ok({ object: 'list', data: page.data, has_more: page.has_more }, pageLinks(req, page));
});
