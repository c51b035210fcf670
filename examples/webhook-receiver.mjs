// A webhook receiver that verifies every delivery's signature (Standard Webhooks) before it trusts
// it, and prints the event. Run it, create a webhook pointing at it, change a note:
//
//   node examples/webhook-receiver.mjs --secret whsec_... [--port 4000]
//
// It answers 204 to a verified delivery and 401 to anything else (wrong secret, tampered body,
// stale timestamp). Deliveries may repeat (at-least-once): `webhook-id` is the same on every retry.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';

const { values } = parseArgs({
  options: { secret: { type: 'string' }, port: { type: 'string', default: '4000' } },
});
if (!values.secret?.startsWith('whsec_')) {
  console.error('usage: node examples/webhook-receiver.mjs --secret whsec_... [--port 4000]');
  process.exit(1);
}
const webhook = new Webhook(values.secret);
const seen = new Set();

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    let event;
    try {
      event = webhook.verify(body, req.headers); // throws unless signature and timestamp check out
    } catch (err) {
      console.log(`refused: ${err.message}`);
      res.writeHead(401).end();
      return;
    }
    const id = req.headers['webhook-id'];
    const again = seen.has(id) ? ' (again: a retry)' : '';
    seen.add(id);
    const note = event.data?.note;
    console.log(
      `${event.type} ${id}${again} ${event.workspace.type}:${event.workspace.path}${note ? ` "${note.title}" (${note.id})` : ''}`,
    );
    res.writeHead(204).end();
  });
});
server.listen(Number(values.port), '127.0.0.1', () =>
  console.log(`listening on http://127.0.0.1:${values.port}/ (Ctrl-C stops)`),
);
process.on('SIGINT', () => server.close(() => process.exit(0)));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
