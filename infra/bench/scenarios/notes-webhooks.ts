// The 18 webhook routes for npm run bench, with their DynamoDB request budgets (auth included;
// docs/webhooks.md): personal routes 2 (one webhook item or the workspace's partition) or 3 (the
// webhook, then its delivery log); creates and deletes 3 (the workspace's webhook count: a first
// webhook marks the workspace, a last one's delete unmarks it, docs/webhooks.md "Costs"; a create's
// folder scope +1 GetItem); team routes +1 (the team's GetItem, for its owner). Mutating rows work
// on webhooks made beforehand, one per call, beside one kept (so no create is a first, no delete a last).
import type { BenchRequest, BenchRoute, BenchScenarios } from '../types.ts';

export async function webhookRoutes(ctx: Parameters<BenchScenarios>[0]): Promise<BenchRoute[]> {
  const owner = await ctx.newUser('Bench Webhooks Owner');
  const team = await ctx.newTeam(owner);
  const url = 'http://127.0.0.1:9/bench'; // never delivered to: the bench makes no note changes here
  const json = { Authorization: `Bearer ${owner.token}`, 'Content-Type': 'application/json' };
  const base = (teamPath?: string) => (teamPath ? `/v1/teams/${teamPath}/webhooks` : '/v1/webhooks');
  const hook = async (teamPath?: string): Promise<string> => {
    const res = await ctx.http('POST', base(teamPath), {
      token: owner.token,
      body: { url, scope: { type: 'workspace' } },
    });
    if (res.status !== 201) throw new Error(`bench setup: create webhook -> ${res.status}`);
    return res.body.id;
  };
  // The log: 25 attempts of one webhook of each kind, written as the delivery function writes them.
  const { recordDelivery } = await import('../../../lib/notes/webhooks/adapters/dynamo-webhooks.ts');
  const { deliveryIdOf } = await import('../../../lib/notes/webhooks/webhooks.ts');
  const logged = async (hookId: string) => {
    let last = '';
    for (let i = 0; i < 25; i += 1) {
      const at = Date.now() - i * 1000;
      last = deliveryIdOf(at, Buffer.from(`bench${i}`));
      await recordDelivery(
        {
          id: last,
          hookId,
          eventId: `msg_${i}`,
          eventType: 'note.updated',
          attemptKind: 'event',
          attempt: 1,
          status: 'success',
          statusCategory: 'delivered',
          httpStatus: 204,
          latencyMs: 10,
          errorCategory: null,
          errorMessage: null,
          createdAt: at,
          deliveredAt: at + 10,
        },
        Date.now() + 86_400_000,
      );
    }
    return last;
  };
  const rows: BenchRoute[] = [];
  for (const teamPath of [undefined, team.path]) {
    const extra = teamPath ? 1 : 0;
    const p = base(teamPath);
    const tmpl = teamPath ? '/v1/teams/{teamPath}/webhooks' : '/v1/webhooks';
    const kept = await hook(teamPath);
    const delivery = await logged(kept);
    // Every webhook but `kept` is removed before a create, a delete or a ping makes another, so the
    // workspace stays under its limit of 10 (not measured: only the request is).
    const clean = async () => {
      const list = await ctx.http('GET', p, { token: owner.token });
      for (const h of list.body as { id: string }[])
        if (h.id !== kept) await ctx.http('DELETE', `${p}/${h.id}`, { token: owner.token });
    };
    const route = (
      r: string,
      budget: number,
      request: (i: number) => Promise<BenchRequest> | BenchRequest,
      status = 200,
    ) => rows.push({ route: r, budget: budget + extra, expectStatus: status, request });
    route(`GET ${tmpl}`, 2, () => ({ method: 'GET', path: p, headers: json }));
    route(
      `POST ${tmpl}`,
      3,
      async () => {
        await clean();
        return {
          method: 'POST',
          path: p,
          headers: json,
          body: JSON.stringify({ url, scope: { type: 'workspace' } }),
        };
      },
      201,
    );
    route(`GET ${tmpl}/{hookId}`, 2, () => ({ method: 'GET', path: `${p}/${kept}`, headers: json }));
    route(`PATCH ${tmpl}/{hookId}`, 2, (i) => ({
      method: 'PATCH',
      path: `${p}/${kept}`,
      headers: json,
      body: JSON.stringify({ name: `bench ${i}` }),
    }));
    route(
      `DELETE ${tmpl}/{hookId}`,
      3,
      async () => {
        await clean();
        return { method: 'DELETE', path: `${p}/${await hook(teamPath)}`, headers: json };
      },
      204,
    );
    route(
      `POST ${tmpl}/{hookId}/ping`,
      2,
      async () => {
        await clean();
        return { method: 'POST', path: `${p}/${await hook(teamPath)}/ping`, headers: json };
      },
      204,
    );
    route(`GET ${tmpl}/{hookId}/deliveries`, 4, () => ({
      method: 'GET',
      path: `${p}/${kept}/deliveries`,
      headers: json,
    }));
    route(`GET ${tmpl}/{hookId}/deliveries/export`, 3, () => ({
      method: 'GET',
      path: `${p}/${kept}/deliveries/export`,
      headers: json,
    }));
    route(`GET ${tmpl}/{hookId}/deliveries/{deliveryId}`, 3, () => ({
      method: 'GET',
      path: `${p}/${kept}/deliveries/${delivery}`,
      headers: json,
    }));
  }
  return rows;
}
