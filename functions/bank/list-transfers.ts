// GET /api/transfers: the caller's transfers, paged, sorted, filtered and searched; Link header.
import { ok, restOperation } from '#lib/http/rest.ts';
import { pageLinks } from '#lib/bank/http.ts';
import { listTransfersQuery } from '#lib/bank/schemas.ts';
import { transfers } from '#lib/bank/service.ts';

export const handler = restOperation({ auth: true, query: listTransfersQuery }, async (req) => {
  const page = await transfers.list(req.principal.userId, req.query);
  return ok({ object: 'list', data: page.data, has_more: page.has_more }, pageLinks(req, page));
});
