// POSTs a delivery to the checked address (the hostname stays in Host and in TLS's SNI and
// certificate check), within a deadline that covers the whole exchange; redirects are never
// followed (node's http does not follow them); at most 64 KiB of the answer is read.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { PostOutcome, PostRequest } from '../events/delivery.ts';

const MAX_ANSWER = 64 * 1024;

export function postDelivery(req: PostRequest): Promise<PostOutcome> {
  const url = new URL(req.url);
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all)
      (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: req.address, family: req.family },
      ]);
    else cb(null, req.address, req.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const r = send(
      url,
      {
        method: 'POST',
        lookup: pinned,
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        agent: false,
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER) res.destroy();
        });
        res.on('end', () => done({ status: res.statusCode ?? 0 }));
        res.on('close', () => done({ status: res.statusCode ?? 0 }));
        res.on('error', () => done({ status: res.statusCode ?? 0 }));
      },
    );
    const timer = setTimeout(() => {
      done({ error: 'timeout', message: `No answer within ${req.timeoutMs} ms` });
      r.destroy();
    }, req.timeoutMs);
    r.on('error', (err: NodeJS.ErrnoException) => {
      const tls =
        /certificate|tls|ssl/i.test(err.message) ||
        err.code?.startsWith('ERR_TLS') ||
        err.code?.includes('CERT');
      done({ error: tls ? 'tls' : 'connection', message: err.message });
    });
    r.end(req.body);
  });
}
