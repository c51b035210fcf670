// Requests with headers fetch() will not send as given (Host) or adds (Sec-Fetch-Mode): node:http.
import { request } from 'node:http';
import type { HttpResponse } from '../support/http.ts';

export function rawGet(path: string, headers: Record<string, string>): Promise<HttpResponse> {
  const url = new URL(path, process.env.TEST_BASE_URL);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers, setHost: !('Host' in headers) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, headers: h, body, text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
