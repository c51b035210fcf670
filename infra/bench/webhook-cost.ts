// npm run bench: what a note write costs the event pipeline, in a workspace without webhooks and in
// one with a webhook (to a receiver in this process). The write itself is the POST /v1/notes row
// (unchanged); here: the stream router's and the delivery function's DynamoDB requests per write,
// read from the runner's event-source invocations (pipeline.ts stats).
import { createServer } from 'node:http';
import type { Runner } from '../local/runner.ts';
import { table } from './stats.ts';
import type { BenchContext } from './types.ts';

const ROUTER = 'NotesRouteWebhookEventsFunction';
const DELIVERY = 'NotesDeliverWebhooksFunction';
/** The pipeline's DynamoDB requests per note write: budget with and without a webhook. */
export const PIPELINE_BUDGET = { without: 1, with: 3 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function pipelineCost(ctx: BenchContext, runner: Runner, writes = 40): Promise<number> {
  let received = 0;
  const rx = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(rx.address() as { port: number }).port}/bench`;
  const snapshot = () => {
    const s = (id: string) => runner.events.stats.get(id) ?? { invocations: 0, requests: 0 };
    return { router: { ...s(ROUTER) }, delivery: { ...s(DELIVERY) } };
  };
  const measure = async (token: string, expectDeliveries: number) => {
    await sleep(1500); // earlier rows' events settle
    const before = snapshot();
    const start = received;
    for (let i = 0; i < writes; i += 1)
      await ctx.http('POST', '/v1/notes', { token, body: { content: `# W${i}` } });
    const deadline = Date.now() + 60_000;
    while (received - start < expectDeliveries && Date.now() < deadline) await sleep(100);
    await sleep(1500);
    const after = snapshot();
    return {
      router: (after.router.requests - before.router.requests) / writes,
      routerCalls: after.router.invocations - before.router.invocations,
      delivery: (after.delivery.requests - before.delivery.requests) / writes,
      delivered: received - start,
    };
  };
  try {
    const plain = await ctx.newUser('Bench No Webhooks');
    const hooked = await ctx.newUser('Bench With Webhook');
    const made = await ctx.http('POST', '/v1/webhooks', {
      token: hooked.token,
      body: { url, scope: { type: 'workspace' } },
    });
    if (made.status !== 201) throw new Error(`bench setup: create webhook -> ${made.status}`);
    const without = await measure(plain.token, 0);
    const withHook = await measure(hooked.token, writes);
    const rows = [
      ['workspace without webhooks', without, PIPELINE_BUDGET.without],
      ['workspace with one webhook', withHook, PIPELINE_BUDGET.with],
    ] as const;
    let failures = 0;
    console.log(
      `\nEvent pipeline per note write (${writes} writes each; the write itself: POST /v1/notes above)\n`,
    );
    console.log(
      table(
        [
          'workspace',
          'router req/write',
          'router invocations',
          'delivery req/write',
          'delivered',
          'budget',
          'result',
        ],
        rows.map(([name, m, budget]) => {
          const total = m.router + m.delivery;
          const bad = total > budget || (name.includes('one') && m.delivered < writes);
          if (bad) failures += 1;
          return [
            name,
            m.router.toFixed(2),
            String(m.routerCalls),
            m.delivery.toFixed(2),
            String(m.delivered),
            String(budget),
            bad ? 'OVER BUDGET' : 'ok',
          ];
        }),
      ),
    );
    return failures;
  } finally {
    rx.closeAllConnections();
    rx.close();
  }
}
