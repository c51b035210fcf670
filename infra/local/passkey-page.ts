// The passkey example page (examples/bank/passkey.html and its script passkey.mjs), served by the
// runner at /_bank/passkey: the stack's own origin is the only one a passkey is accepted from locally
// (PASSKEY_ORIGINS, infra/local/stack.ts), so this is where a passkey can be enrolled and used with
// the browser's own WebAuthn. Everything else the runner serves (and every API answer) keeps the
// security headers' Permissions-Policy, which forbids publickey-credentials-get; this page alone
// allows publickey-credentials-create and -get for itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalEndpoint } from './endpoints.ts';
import { withSecurityHeaders } from './gateway.ts';
import { ROOT } from './template.ts';

const DIR = join(ROOT, 'examples', 'bank');
export const PASSKEY_PAGE = '/_bank/passkey';
const FILES: Record<string, [file: string, type: string]> = {
  [PASSKEY_PAGE]: ['passkey.html', 'text/html; charset=utf-8'],
  [`${PASSKEY_PAGE}.js`]: ['passkey.mjs', 'text/javascript; charset=utf-8'],
};
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The security headers' Permissions-Policy with WebAuthn allowed for this origin, and only for it. */
export function passkeyPermissions(policy: string): string {
  const rest = policy
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d && !/^publickey-credentials-(get|create)=/.test(d));
  return [...rest, 'publickey-credentials-create=(self)', 'publickey-credentials-get=(self)'].join(', ');
}

export const passkeyPage = (): LocalEndpoint => ({
  matches: (method, path) => (method === 'GET' || method === 'HEAD') && path in FILES,
  async serve(req, res, path) {
    const [file, type] = FILES[path]!;
    const body = readFileSync(join(DIR, file), 'utf8');
    const headers = await withSecurityHeaders({
      'Content-Type': type,
      'Content-Security-Policy': CSP,
      'Cache-Control': 'no-cache',
    });
    headers['Permissions-Policy'] = passkeyPermissions(headers['Permissions-Policy'] ?? '');
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
  },
});
