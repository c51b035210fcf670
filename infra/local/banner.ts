// What npm start prints once it is ready: routes, the demo credentials and a description of the
// demo data as it is now (counted now, not remembered). The counts are read through the APIs'
// domain services, never through the HTTP APIs with a demo token: the banner spends nobody's rate
// limit, and it adds nothing to the News status counters.
import { fullMfa, fullTransfers } from '../../lib/bank/wiring.ts';
import { fullNews } from '../../lib/news/wiring.ts';
import { fullNotes } from '../../lib/notes/wiring.ts';
import type { DemoCredentials } from '../seed/context.ts';
import type { DemoSeed } from '../seed/demo.ts';
import { DEMO_PAGE_PERMALINK } from '../seed/notes.ts';
import { PASSKEY_PAGE } from './passkey-page.ts';
import type { Runner } from './runner.ts';
import type { LocalStack } from './stack.ts';

async function count<T>(read: () => Promise<T>, pick: (value: T) => number | string): Promise<string> {
  try {
    return String(pick(await read()));
  } catch (err) {
    return `? (${(err as Error).message})`;
  }
}

/** One line per API, counted now. */
export async function describeData(demo: DemoCredentials): Promise<string[]> {
  const userId = demo.users[0]?.id ?? '';
  const [personal, teamNotes, articles, transferCount] = await Promise.all([
    count(
      () => fullNotes().listNotes(userId),
      (b) => b.length,
    ),
    count(
      () => fullNotes().listTeamNotes(userId, demo.team),
      (b) => b.length,
    ),
    count(
      () => fullNews().newsPage(1, 1),
      (b) => b.articlesCount,
    ),
    count(
      () => fullTransfers().list(userId, { limit: 100 }),
      (b) => `${b.data.length}${b.has_more ? '+' : ''}`,
    ),
  ]);
  return [
    `Team: ${demo.team} (members: Demo User, Alice)`,
    `Notes: ${personal} notes of Demo User, ${teamNotes} in team ${demo.team}`,
    `News: ${articles} articles: GET /api/v1/news, /api/v1/users/1, /api/v1/tags/1/summary`,
    `Bank: ${transferCount} transfers of Demo User (an admin with an OTP factor, see below; codes sent: admin outbox)`,
  ];
}

/**
 * How the Demo User takes a first step-up (docs/bank.md, "The Demo User's first factor"): the seeded
 * OTP factor's secret, printed to this terminal only (the stack is local; the secret is kept in
 * LOCAL_DATA_DIR/demo.json, never in a tracked file), while the factor is still there; else the
 * mfa_token an admin can issue. Then the passkey page.
 */
export async function firstFactor(demo: DemoCredentials, url: string): Promise<string[]> {
  const user = demo.users[0];
  if (!user) return [];
  const lines = [`Bank step-up of Demo User (local only; docs/bank.md "The Demo User's first factor"):`];
  const factors = await fullMfa()
    .listDevices(user.id)
    .catch(() => undefined);
  const otp = demo.otp;
  if (otp && factors?.some((f) => f.id === otp.deviceId && f.status !== 'pending_activation'))
    lines.push(
      `  OTP factor ${otp.deviceId}: secret ${otp.secret} (in an authenticator app, or ` +
        'oathtool --totp -b <secret>: its code approves a verification, the first step-up)',
      `  otpauth URI (for a QR code): ${otp.otpauthUri}`,
    );
  else
    lines.push(
      otp
        ? `  the seeded OTP factor ${otp.deviceId} is gone: as an admin, issue an mfa_token ` +
            `(POST /api/users/${user.id}/mfa_token) and verify with it`
        : "  the seeded OTP factor's secret: npm run admin -- seed (or, as an admin, an mfa_token: " +
            `POST /api/users/${user.id}/mfa_token)`,
    );
  lines.push(`  Passkeys in this browser (enrol, verify, step up): ${url}${PASSKEY_PAGE}?user=${user.id}`);
  return lines;
}

export async function printBanner(
  runner: Runner,
  stack: LocalStack,
  env: Record<string, string>,
  demo: DemoSeed,
) {
  const byApi = new Map<string, string[]>();
  for (const r of runner.routes) {
    if (r.method === 'ANY') continue;
    (byApi.get(r.apiId) ?? byApi.set(r.apiId, []).get(r.apiId)!).push(
      `  ${r.method.padEnd(6)} ${r.path.padEnd(52)} ${r.entry}`,
    );
  }
  const lines: string[] = [''];
  for (const [api, routes] of byApi) lines.push(api, ...routes, '');
  lines.push(`Docs (try the APIs in a browser): ${runner.url}/`);
  if (runner.live)
    lines.push(
      `Live editing (WebSocket, docs/live.md): ${env.NOTES_LIVE_URL}   editor: ${runner.url}/_live/editor`,
    );
  lines.push(
    `OpenAPI: ${['notes', 'news', 'bank'].map((n) => `${runner.url}/openapi/${n}.json`).join('  ')}`,
  );
  lines.push(
    `DynamoDB Local: ${stack.dynamoEndpoint} (table ${stack.tableName})   ` +
      `S3 emulator: ${stack.s3Endpoint} (bucket ${stack.bucketName})`,
    '',
  );
  lines.push(
    `Demo credentials (Authorization: Bearer <token>)${demo.reused ? ', the same as last time' : ''}:`,
  );
  for (const u of demo.users)
    lines.push(`  ${u.name.padEnd(14)} id ${u.id}  token ${u.token}${u.note ? `  (${u.note})` : ''}`);
  for (const line of await describeData(demo)) lines.push(`  ${line}`);
  for (const line of await firstFactor(demo, runner.url)) lines.push(`  ${line}`);
  const owner = demo.users[0]?.userPath;
  if (owner)
    lines.push(`  A public note's page (open in a browser): ${runner.url}/@${owner}/${DEMO_PAGE_PERMALINK}`);
  lines.push(
    '',
    `Internal CSRF endpoint: Origin: ${env.INTERNAL_EDGE_ORIGIN}  Host: ${env.INTERNAL_API_HOST}  ` +
      `Key: ${env.INTERNAL_API_KEY}`,
  );
  lines.push(
    `  curl -H 'Origin: ${env.INTERNAL_EDGE_ORIGIN}' -H 'Host: ${env.INTERNAL_API_HOST}' ` +
      `-H 'Key: ${env.INTERNAL_API_KEY}' ${runner.url}/api/internal/v1/csrf`,
  );
  lines.push(`Try: curl -H 'Authorization: Bearer ${demo.users[0]?.token}' ${runner.url}/v1/me`, '');
  console.log(lines.join('\n'));
}
