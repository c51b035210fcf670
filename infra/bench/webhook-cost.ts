// npm run bench: what a note write costs the event pipeline, in a workspace without webhooks and in
// one with a webhook (to a receiver in this process). The write itself is the POST /v1/notes row
// (unchanged); here: the stream router's and the delivery function's DynamoDB requests per write,
// read from the runner's event-source invocations (pipeline.ts stats). Without webhooks the stream's
// filter passes nothing (the hooked marker, docs/architecture.md): the router is not even invoked.
// Then the one-time cost of a workspace's first webhook, which stamps the notes it already has.
import { createServer } from 'node:http';
import type { PipelineStats } from '../local/pipeline.ts';
import type { Runner } from '../local/runner.ts';
import { startBilling } from './biller.ts';
import { PIPELINE_LOG_BYTES, type PipelineUsage, pipelinePerMillion } from './cost.ts';
import { median, table } from './stats.ts';
import type { BenchContext } from './types.ts';

const ROUTER = 'NotesRouteWebhookEventsFunction';
const DELIVERY = 'NotesDeliverWebhooksFunction';
/** The pipeline's DynamoDB requests per note write: budget with and without a webhook. */
export const PIPELINE_BUDGET = { without: 0, with: 3 };
/** Notes a workspace has when it gets its first webhook (the stamping row). */
const STAMPED_NOTES = 30;
/** A workspace's first webhook: a later create's requests + 4 (marks, the notes' Queries) + 1 per note. */
const FIRST_HOOK_BUDGET = (notes: number) => 3 + 4 + notes;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the pipeline cost per note write, in dollars per million writes (README, docs/benchmarks.md). */
export interface PipelineCost {
  without: number;
  with: number;
  usage: PipelineUsage;
}

export async function pipelineCost(
  ctx: BenchContext,
  runner: Runner,
  writes = 40,
  memoryMb = 512,
): Promise<{ failures: number; cost: PipelineCost }> {
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
    const s = (id: string): PipelineStats =>
      runner.events.stats.get(id) ?? {
        invocations: 0,
        requests: 0,
        durations: [],
        writeUnits: 0,
        readUnits: 0,
      };
    return {
      router: { ...s(ROUTER), durations: [...s(ROUTER).durations] },
      delivery: { ...s(DELIVERY), durations: [...s(DELIVERY).durations] },
    };
  };
  const measure = async (token: string, expectDeliveries: number) => {
    await sleep(1500); // earlier rows' events settle
    const before = snapshot();
    const start = received;
    // The pipeline's DynamoDB requests priced as AWS bills them (the writes' own are the POST row's).
    const stopBilling = startBilling();
    try {
      for (let i = 0; i < writes; i += 1)
        await ctx.http('POST', '/v1/notes', { token, body: { content: `# W${i}` } });
      const deadline = Date.now() + 60_000;
      while (received - start < expectDeliveries && Date.now() < deadline) await sleep(100);
      await sleep(1500);
    } finally {
      stopBilling();
    }
    const after = snapshot();
    const delta = (k: 'router' | 'delivery') => ({
      invocations: after[k].invocations - before[k].invocations,
      requests: after[k].requests - before[k].requests,
      durations: after[k].durations.slice(before[k].durations.length),
      writeUnits: after[k].writeUnits - before[k].writeUnits,
      readUnits: after[k].readUnits - before[k].readUnits,
    });
    const router = delta('router');
    const delivery = delta('delivery');
    const delivered = received - start;
    const usage: PipelineUsage = {
      routerInvocations: router.invocations / writes,
      deliveryInvocations: delivery.invocations / writes,
      routerMs: router.durations.length ? median(router.durations) : 0,
      deliveryMs: delivery.durations.length ? median(delivery.durations) : 0,
      memoryMb,
      writeUnits: (router.writeUnits + delivery.writeUnits) / writes,
      readUnits: (router.readUnits + delivery.readUnits) / writes,
      // Each delivered message: the router's send, the event source's receive and delete.
      sqsRequests: (3 * delivered) / writes,
      logBytes: ((router.invocations + delivery.invocations) * PIPELINE_LOG_BYTES) / writes,
    };
    return {
      router: router.requests / writes,
      routerCalls: router.invocations,
      delivery: delivery.requests / writes,
      delivered,
      usage,
      dollars: pipelinePerMillion(usage),
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
    // The first webhook of a workspace with notes (and one in the trash): one UpdateItem per note.
    const owner = await ctx.newUser('Bench First Webhook');
    for (let i = 0; i < STAMPED_NOTES; i += 1) {
      const made = await ctx.http('POST', '/v1/notes', { token: owner.token, body: { content: `# S${i}` } });
      if (i === 0) await ctx.http('DELETE', `/v1/notes/${made.body.id}`, { token: owner.token });
    }
    const first = await ctx.http('POST', '/v1/webhooks', {
      token: owner.token,
      body: { url, scope: { type: 'workspace' } },
    });
    if (first.status !== 201) throw new Error(`bench: first webhook -> ${first.status}`);
    const firstRequests = Number(first.headers.get('x-local-dynamo-requests'));
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
          'WRU / RRU per write',
          'router / delivery ms',
          '$ per million writes',
          'result',
        ],
        rows.map(([name, m, budget]) => {
          const total = m.router + m.delivery;
          const bad =
            total > budget ||
            (name.includes('one') && m.delivered < writes) ||
            (name.includes('without') && m.routerCalls > 0);
          if (bad) failures += 1;
          return [
            name,
            m.router.toFixed(2),
            String(m.routerCalls),
            m.delivery.toFixed(2),
            String(m.delivered),
            String(budget),
            `${m.usage.writeUnits.toFixed(2)} / ${m.usage.readUnits.toFixed(2)}`,
            `${m.usage.routerMs.toFixed(1)} / ${m.usage.deliveryMs.toFixed(1)}`,
            `$${m.dollars.toFixed(2)}`,
            bad ? 'OVER BUDGET' : 'ok',
          ];
        }),
      ),
    );
    const firstOver = firstRequests > FIRST_HOOK_BUDGET(STAMPED_NOTES);
    if (firstOver) failures += 1;
    console.log(
      `\nA workspace's first webhook, with ${STAMPED_NOTES} notes (one in the trash): POST /v1/webhooks ` +
        `${firstRequests} DynamoDB requests (budget ${FIRST_HOOK_BUDGET(STAMPED_NOTES)}: a later create's 3, ` +
        `+4 for the marks and the notes' Queries, +1 per note) ${firstOver ? 'OVER BUDGET' : 'ok'}`,
    );
    return { failures, cost: { without: without.dollars, with: withHook.dollars, usage: withHook.usage } };
  } finally {
    rx.closeAllConnections();
    rx.close();
  }
}
