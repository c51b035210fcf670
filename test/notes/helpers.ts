// Shared helpers of the Notes tests: documented HTTP calls, request budgets, sample images.
import { expect } from 'vitest';
import { http, type HttpResponse } from '../support/http.ts';
import { expectDocumented } from '../support/openapi.ts';

/** The runner reports DynamoDB requests per call only when the tests target it. */
export const local = process.env.TEST_BASE_URL === process.env.LOCAL_RUNNER_URL;

/** An HTTP call whose response must match openapi/notes.json. */
export async function call(
  method: string,
  path: string,
  opts: Parameters<typeof http>[2] = {},
): Promise<HttpResponse> {
  const res = await http(method, path, opts);
  expectDocumented('notes', method, path, res);
  return res;
}

/** Asserts the call stayed within its DynamoDB request budget (auth included). */
export function expectBudget(res: HttpResponse, budget: number): void {
  if (!local) return;
  const used = Number(res.headers.get('x-local-dynamo-requests'));
  // The first call of a token's rate-limit window also starts the window: one more UpdateItem
  // (docs/notes.md, Rate limits). It is recognisable: all but this call remain in the window.
  const firstOfWindow =
    Number(res.headers.get('x-ratelimit-userremaining')) ===
    Number(res.headers.get('x-ratelimit-userlimit')) - 1;
  const allowed = budget + (firstOfWindow ? 1 : 0);
  expect(
    used,
    `DynamoDB requests (budget ${budget}${firstOfWindow ? ' + window start' : ''})`,
  ).toBeLessThanOrEqual(allowed);
}

/** A 1x1 transparent PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A 1x1 GIF. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A multipart/form-data body with the given parts. */
export function multipart(
  parts: { name: string; filename?: string; type?: string; data: Buffer | string }[],
): { raw: Buffer; headers: Record<string, string> } {
  const boundary = `----notes${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    raw: Buffer.concat(chunks),
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Creates a personal (or, with teamPath, team) note over HTTP and returns the single note. */
export async function createNote(
  token: string,
  body: unknown = {},
  teamPath?: string,
): Promise<Record<string, any>> {
  const res = await call('POST', teamPath ? `/v1/teams/${teamPath}/notes` : '/v1/notes', { token, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export const NOTE_FIELDS = [
  'createdAt',
  'description',
  'folderPaths',
  'id',
  'lastChangeUser',
  'lastChangedAt',
  'permalink',
  'publishLink',
  'publishType',
  'publishedAt',
  'readPermission',
  'shortId',
  'tags',
  'tagsUpdatedAt',
  'teamPath',
  'title',
  'titleUpdatedAt',
  'userPath',
  'writePermission',
];
