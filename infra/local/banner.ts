// What npm start prints once it is ready: routes, the demo credentials and a description of the
// demo data as it is now (asked of the running APIs with the demo user's token, not remembered).
import type { DemoCredentials } from '../seed/context.ts';
import type { DemoSeed } from '../seed/demo.ts';
import type { Runner } from './runner.ts';
import type { LocalStack } from './stack.ts';

async function count(url: string, token: string, pick: (body: any) => number | string): Promise<string> {
  try {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    return res.ok ? String(pick(await res.json())) : `? (${res.status})`;
  } catch {
    return '?';
  }
}

/** One line per API, counted now. */
export async function describeData(url: string, demo: DemoCredentials): Promise<string[]> {
  const token = demo.users[0]?.token ?? '';
  const [notes, teamNotes, news, transfers] = await Promise.all([
    count(`${url}/v1/notes`, token, (b) => b.length),
    count(`${url}/v1/teams/${demo.team}/notes`, token, (b) => b.length),
    count(`${url}/api/v1/news`, token, (b) => b.response.articlesCount),
    count(`${url}/api/transfers?limit=100`, token, (b) => `${b.data.length}${b.has_more ? '+' : ''}`),
  ]);
  return [
    `Team: ${demo.team} (members: Demo User, Alice)`,
    `Notes: ${notes} notes of Demo User, ${teamNotes} in team ${demo.team}`,
    `News: ${news} articles: GET /api/v1/news, /api/v1/users/1, /api/v1/tags/1/summary`,
    `Bank: ${transfers} transfers of Demo User (an admin with an OTP factor; see admin outbox, enroll-device)`,
  ];
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
  for (const line of await describeData(runner.url, demo)) lines.push(`  ${line}`);
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
