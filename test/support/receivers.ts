// Local webhook receivers for the delivery tests (127.0.0.1, free ports): each records what it got
// and answers as told (an HTTP status, or no answer at all), one behaviour per request in order.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

export interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What to do with a request: answer with this status, or 'hang' (answer only when closed). */
export type Behaviour = number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `n` requests arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(plan: (n: number) => Behaviour = () => 204): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const w of waiters.splice(0)) w();
      const behaviour = plan(received.length);
      if (behaviour === 'hang') hanging.push(res);
      else res.writeHead(behaviour).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    waitFor: async (n, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline)
          throw new Error(`expected ${n} deliveries within ${timeoutMs} ms, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 200);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return received;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
