// The webhooks page's examples: a personal webhook delivering to examples/webhook-receiver.mjs (which
// verifies every signature), its deliveries and their export; then a team's webhook.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT } from '../../local/template.ts';
import type { Context, Page } from './capture.ts';

/** Long enough for the stream, the router and the delivery queue to deliver an event locally. */
const DELIVERY_WAIT_MS = 8000;

export async function webhookExamples(p: Page, ctx: Context): Promise<void> {
  const receiver = `http://127.0.0.1:${ctx.receiverPort}`;
  p.text(
    'A receiver must be listening first; locally deliveries may go to `127.0.0.1` and `localhost` ' +
      '(`WEBHOOK_ALLOWED_DESTINATIONS`). The examples use `examples/webhook-receiver.mjs` on port 4000.',
  );
  const hook = await p.call(
    'Create a webhook: `POST /v1/webhooks` (the `secret` is shown once)',
    'POST',
    '/v1/webhooks',
    {
      body: { url: `${receiver}/`, scope: { type: 'workspace' }, name: 'Local receiver' },
    },
  );
  const hid = hook.json.id;
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'examples/webhook-receiver.mjs'),
      '--secret',
      hook.json.secret,
      '--port',
      String(ctx.receiverPort),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let printed = '';
  const collect = (chunk: Buffer) => {
    printed += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  try {
    await sleep(1500);
    await p.call('List webhooks: `GET /v1/webhooks`', 'GET', '/v1/webhooks');
    await p.call('Read one: `GET /v1/webhooks/{hookId}`', 'GET', `/v1/webhooks/${hid}`);
    await p.call('Change it: `PATCH /v1/webhooks/{hookId}`', 'PATCH', `/v1/webhooks/${hid}`, {
      body: { name: 'Local receiver (dev)' },
    });
    await p.call('Send a test event: `POST /v1/webhooks/{hookId}/ping`', 'POST', `/v1/webhooks/${hid}/ping`);
    const note = await p.call('A note change, which the pipeline turns into an event', 'POST', '/v1/notes', {
      body: { title: 'Hooked', content: '# Hooked' },
    });
    await sleep(DELIVERY_WAIT_MS);
    const deliveries = await p.call(
      'Its deliveries, newest first: `GET /v1/webhooks/{hookId}/deliveries`',
      'GET',
      `/v1/webhooks/${hid}/deliveries?limit=5`,
    );
    await p.call(
      'One delivery: `GET /v1/webhooks/{hookId}/deliveries/{deliveryId}`',
      'GET',
      `/v1/webhooks/${hid}/deliveries/${deliveries.json.data[0]?.id}`,
    );
    p.text('The export is NDJSON, one delivery per line:');
    await p.call(
      'All deliveries as a file: `GET /v1/webhooks/{hookId}/deliveries/export`',
      'GET',
      `/v1/webhooks/${hid}/deliveries/export`,
    );
    p.text('What the receiver printed:');
    p.block('', p.local(printed.trim()).replaceAll(`:${ctx.receiverPort}/`, ':4000/'));
    await p.call('Delete it: `DELETE /v1/webhooks/{hookId}`', 'DELETE', `/v1/webhooks/${hid}`);
    await p.call('(tidy up the note)', 'DELETE', `/v1/notes/${note.json.id}`);

    const team = `/v1/teams/${ctx.team}/webhooks`;
    p.text("A team's webhooks take the team's path and answer the same way; any member may manage them.");
    const th = await p.call('Create: `POST /v1/teams/{teamPath}/webhooks`', 'POST', team, {
      body: { url: `${receiver}/team`, scope: { type: 'workspace' }, name: 'Team receiver', active: true },
    });
    const thid = th.json.id;
    await p.call('List: `GET /v1/teams/{teamPath}/webhooks`', 'GET', team);
    await p.call('Read: `GET /v1/teams/{teamPath}/webhooks/{hookId}`', 'GET', `${team}/${thid}`);
    await p.call('Pause it: `PATCH /v1/teams/{teamPath}/webhooks/{hookId}`', 'PATCH', `${team}/${thid}`, {
      body: { active: false },
    });
    await p.call('(resume it)', 'PATCH', `${team}/${thid}`, { body: { active: true } });
    await p.call('Ping: `POST /v1/teams/{teamPath}/webhooks/{hookId}/ping`', 'POST', `${team}/${thid}/ping`);
    await sleep(DELIVERY_WAIT_MS);
    const tdeliveries = await p.call(
      'Deliveries: `GET /v1/teams/{teamPath}/webhooks/{hookId}/deliveries`',
      'GET',
      `${team}/${thid}/deliveries`,
    );
    await p.call(
      'One delivery: `GET /v1/teams/{teamPath}/webhooks/{hookId}/deliveries/{deliveryId}`',
      'GET',
      `${team}/${thid}/deliveries/${tdeliveries.json.data[0]?.id}`,
    );
    p.text(
      "The receiver above checks signatures with the personal webhook's secret, so it refused the team webhook's ping with 401; the delivery log records that:",
    );
    await p.call(
      'Export: `GET /v1/teams/{teamPath}/webhooks/{hookId}/deliveries/export`',
      'GET',
      `${team}/${thid}/deliveries/export`,
    );
    await p.call('Delete: `DELETE /v1/teams/{teamPath}/webhooks/{hookId}`', 'DELETE', `${team}/${thid}`);
  } finally {
    child.kill();
  }
}
