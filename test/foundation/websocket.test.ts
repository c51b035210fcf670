// The runner's WebSocket API (infra/local/websocket.ts) as API Gateway behaves, from the template's
// own WebSocket resources (routes, integrations) with a fixture function behind each route, driven by
// the real `ws` client and the real @aws-sdk/client-apigatewaymanagementapi; the keepalive (a MOCK
// route) with the example provider.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  GoneException,
  PayloadTooLargeException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { LiveProvider } from '../../examples/live/provider.mjs';
import type { Runner } from '../../infra/local/runner.ts';
import { loadTemplate, type Template } from '../../infra/local/template.ts';
import { startOwnRunner } from '../support/runner.ts';

const real = loadTemplate();
const FIXTURE = 'test/fixtures/functions/websocket-echo.ts';
const scratch = mkdtempSync(join(tmpdir(), 'tri-api-ws-'));
const eventsFile = join(scratch, 'events.jsonl');
writeFileSync(eventsFile, '');
/** The functions post to connections through the runner's own management endpoint. */
const liveEnv = (port: number) => ({ NOTES_LIVE_CONNECTIONS_URL: `http://127.0.0.1:${port}/_live` });

/** The real template's WebSocket API, its three functions replaced by the fixture. */
function templateWithFixture(): Template {
  const resources: Template['Resources'] = { NotesApi: real.Resources.NotesApi };
  const functionIds = new Set<string>();
  for (const [id, r] of Object.entries(real.Resources)) {
    if (!r.Type.startsWith('AWS::ApiGatewayV2::')) continue;
    resources[id] = r;
    const fn = /\$\{(\w+)\.Arn\}/.exec(JSON.stringify(r.Properties?.IntegrationUri ?? ''))?.[1];
    if (fn) functionIds.add(fn);
  }
  expect(functionIds.size).toBe(3);
  for (const id of functionIds)
    resources[id] = {
      Type: 'AWS::Serverless::Function',
      Metadata: { BuildMethod: 'esbuild', BuildProperties: { EntryPoints: [FIXTURE] } },
      Properties: {
        Handler: 'websocket-echo.handler',
        Timeout: 5,
        Environment: { Variables: { WS_EVENTS_FILE: eventsFile } },
      },
    };
  return { ...real, Resources: resources };
}

type Logged = {
  requestContext: Record<string, unknown> & { eventType: string; connectionId: string };
  body?: string;
  isBase64Encoded: boolean;
  headers?: Record<string, string>;
  queryStringParameters?: Record<string, string>;
};
const events = (): Logged[] =>
  readFileSync(eventsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const eventsOf = (id: string, kind: string) =>
  events().filter((e) => e.requestContext.connectionId === id && e.requestContext.eventType === kind);

async function until<T>(what: () => T | undefined, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = what();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A client that keeps every frame it gets, with its connection id (asked of the fixture). */
class Client {
  readonly frames: Array<{ text: string; binary: boolean }> = [];
  closed?: { code: number; reason: string };
  id = '';
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, binary) => this.frames.push({ text: data.toString('utf8'), binary }));
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
    ws.on('error', () => {});
  }
  static async open(url: string): Promise<Client> {
    const ws = new WebSocket(url);
    const c = new Client(ws);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    });
    const info = await c.ask({ op: 'info', nonce: randomUUID() });
    c.id = (
      await until(() => events().find((e) => e.requestContext.requestId && e.body === info))
    ).requestContext.connectionId;
    return c;
  }
  /** Sends a command and waits for the next frame. */
  async ask(command: unknown): Promise<string> {
    const seen = this.frames.length;
    const text = typeof command === 'string' ? command : JSON.stringify(command);
    this.ws.send(text);
    await until(() => this.frames.length > seen);
    return text;
  }
  last = () => this.frames.at(-1)!;
  closedWith = () => until(() => this.closed);
}

const liveUrl = (r: Runner) => `${r.url.replace('http', 'ws')}/_live`;

describe("the template's WebSocket API, as deployed", () => {
  const resources = Object.entries(real.Resources);
  const ofType = (type: string) => resources.filter(([, r]) => r.Type === type);
  const sub = (v: unknown) => JSON.stringify(v);

  it('routes $connect, $disconnect and $default by AWS_PROXY to a function each, invocable by this API only', () => {
    const [[apiId, api]] = ofType('AWS::ApiGatewayV2::Api');
    expect(api.Properties).toMatchObject({
      ProtocolType: 'WEBSOCKET',
      RouteSelectionExpression: '$request.body.action',
    });
    const routes = ofType('AWS::ApiGatewayV2::Route')
      .map(([, r]) => r.Properties!)
      .filter((r) => r.RouteKey !== 'ping');
    expect(routes.map((r) => r.RouteKey).sort()).toEqual(['$connect', '$default', '$disconnect']);
    const functions = new Set<string>();
    for (const route of routes) {
      const integrationId = /integrations\/\$\{(\w+)\}/.exec(sub(route.Target))![1];
      const integration = real.Resources[integrationId].Properties!;
      expect(integration.IntegrationType).toBe('AWS_PROXY');
      const fn = /\$\{(\w+)\.Arn\}/.exec(sub(integration.IntegrationUri))![1];
      expect(real.Resources[fn].Type).toBe('AWS::Serverless::Function');
      functions.add(fn);
      const permission = ofType('AWS::Lambda::Permission').find(
        ([, p]) => p.Properties!.FunctionName?.Ref === fn && sub(p.Properties!.SourceArn).includes(apiId),
      );
      expect(permission?.[1].Properties, fn).toMatchObject({ Principal: 'apigateway.amazonaws.com' });
      expect(sub(permission![1].Properties!.SourceArn)).toContain(`\${${apiId}}/*/${route.RouteKey}`);
    }
    expect(functions.size).toBe(3);
  });

  it('answers the keepalive `{"action":"ping"}` itself: a MOCK route, no function, nothing sent back', () => {
    const route = ofType('AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties!.RouteKey === 'ping')?.[1];
    expect(route, 'a ping route').toBeDefined();
    const integrationId = /integrations\/\$\{(\w+)\}/.exec(sub(route!.Properties!.Target))![1];
    expect(real.Resources[integrationId].Properties).toMatchObject({
      IntegrationType: 'MOCK',
      RequestTemplates: { $default: '{"statusCode": 200}' },
    });
    expect(real.Resources[integrationId].Properties!.IntegrationUri).toBeUndefined();
    expect(route!.Properties!.RouteResponseSelectionExpression).toBeUndefined();
    expect(ofType('AWS::ApiGatewayV2::RouteResponse')).toEqual([]);
  });

  it('has a stage with JSON access logs and a deployment of its routes; the output NotesLiveUrl is its wss URL', () => {
    const [[, stage]] = ofType('AWS::ApiGatewayV2::Stage');
    expect(JSON.parse(stage.Properties!.AccessLogSettings.Format)).toMatchObject({
      connectionId: '$context.connectionId',
    });
    const [[deploymentId, deployment]] = ofType('AWS::ApiGatewayV2::Deployment');
    expect(stage.Properties!.DeploymentId).toEqual({ Ref: deploymentId });
    expect((deployment as { DependsOn?: string[] }).DependsOn).toHaveLength(4);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation !Sub string
    expect(sub(real.Outputs?.NotesLiveUrl)).toContain('wss://${NotesLiveApi}.execute-api.');
  });
});

describe('the WebSocket API of the template, locally', () => {
  let runner: Runner;
  let sdk: ApiGatewayManagementApiClient;
  beforeAll(async () => {
    runner = await startOwnRunner({
      env: liveEnv,
      template: templateWithFixture(),
      buildDir: join(scratch, 'build-1'),
    });
    sdk = new ApiGatewayManagementApiClient({ endpoint: liveEnv(runner.port).NOTES_LIVE_CONNECTIONS_URL });
  });
  afterAll(async () => {
    sdk?.destroy();
    await runner?.close();
  });

  it('$connect gets the handshake (query, headers) as API Gateway shapes it; a non-2xx refuses the upgrade', async () => {
    const refused = new WebSocket(`${liveUrl(runner)}?status=403&ticket=t1`);
    const answer = await new Promise<{ status: number; body: string }>((resolve) =>
      refused.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      }),
    );
    expect(answer).toEqual({ status: 403, body: '{"message":"refused by the fixture"}' });
    const connect = await until(() =>
      events().find(
        (e) => e.queryStringParameters?.ticket === 't1' && e.requestContext.eventType === 'CONNECT',
      ),
    );
    expect(connect.requestContext).toMatchObject({
      routeKey: '$connect',
      eventType: 'CONNECT',
      messageDirection: 'IN',
      stage: 'local',
      apiId: 'notesliveapi',
      domainName: expect.stringMatching(/^localhost:\d+$/),
      connectionId: expect.stringMatching(/^[A-Za-z0-9]{11}=$/),
      connectedAt: expect.any(Number),
      requestId: expect.any(String),
      identity: { sourceIp: expect.any(String), userAgent: expect.any(String) },
    });
    expect(connect.headers?.['Sec-WebSocket-Key']).toBeTruthy();
    expect(connect.isBase64Encoded).toBe(false);
    // A refused connection never existed: no $disconnect for it.
    await new Promise((r) => setTimeout(r, 300));
    expect(eventsOf(connect.requestContext.connectionId, 'DISCONNECT')).toHaveLength(0);
  });

  it('a text message reaches $default as a string body; the function answers through @connections in one text frame', async () => {
    const c = await Client.open(liveUrl(runner));
    await c.ask('AAEC/w==');
    expect(c.last()).toEqual({ text: 'AAEC/w==', binary: false });
    const [message] = eventsOf(c.id, 'MESSAGE').filter((e) => e.body === 'AAEC/w==');
    expect(message).toMatchObject({ body: 'AAEC/w==', isBase64Encoded: false });
    expect(message.requestContext).toMatchObject({
      routeKey: '$default',
      eventType: 'MESSAGE',
      stage: 'local',
    });
    expect(message.requestContext.messageId).toEqual(expect.any(String));
    // GetConnection through the SDK, from the function.
    await c.ask({ op: 'info' });
    const info = JSON.parse(c.last().text);
    expect(info.Identity.SourceIp).toMatch(/127\.0\.0\.1/);
    expect(new Date(info.ConnectedAt).getTime()).toBeLessThanOrEqual(Date.now());
    c.ws.close(1000);
    await c.closedWith();
  });

  it('@connections through the real SDK: send, describe, close; 410 GoneException once the connection is gone; $disconnect once', async () => {
    const [a, b] = await Promise.all([Client.open(liveUrl(runner)), Client.open(liveUrl(runner))]);
    // One connection's function sends to another.
    b.ws.send(JSON.stringify({ op: 'post', to: a.id, data: 'to a' }));
    await until(() => a.frames.some((f) => f.text === 'to a'));
    // The test process, as a function elsewhere would.
    await sdk.send(new PostToConnectionCommand({ ConnectionId: a.id, Data: Buffer.from('from the SDK') }));
    await until(() => a.frames.some((f) => f.text === 'from the SDK' && !f.binary));
    const info = await sdk.send(new GetConnectionCommand({ ConnectionId: a.id }));
    expect(info.ConnectedAt).toBeInstanceOf(Date);
    expect(info.LastActiveAt!.getTime()).toBeGreaterThanOrEqual(info.ConnectedAt!.getTime());
    await sdk.send(new DeleteConnectionCommand({ ConnectionId: a.id }));
    expect(await a.closedWith()).toMatchObject({ code: 1000 });
    const gone = await sdk
      .send(new PostToConnectionCommand({ ConnectionId: a.id, Data: Buffer.from('late') }))
      .catch((e) => e);
    expect(gone).toBeInstanceOf(GoneException);
    expect(gone.$metadata.httpStatusCode).toBe(410);
    // Unsigned (a web page's fetch): refused, as API Gateway refuses it.
    const unsigned = await fetch(`${runner.url}/_live/@connections/${encodeURIComponent(b.id)}`, {
      method: 'POST',
      body: 'not from a function',
    });
    expect(unsigned.status).toBe(403);
    await expect(sdk.send(new GetConnectionCommand({ ConnectionId: 'Nope0000000=' }))).rejects.toBeInstanceOf(
      GoneException,
    );
    // From a function too: the error reaches it as the SDK's GoneException.
    await b.ask({ op: 'post', to: a.id, data: 'late' });
    expect(JSON.parse(b.last().text)).toEqual({ error: 'GoneException', status: 410 });
    const bye = await until(() => eventsOf(a.id, 'DISCONNECT')[0]);
    expect(bye.requestContext).toMatchObject({ routeKey: '$disconnect', disconnectStatusCode: 1000 });
    expect(b.frames.some((f) => f.text === 'not from a function')).toBe(false);
    b.ws.close();
    await b.closedWith();
    await until(() => eventsOf(b.id, 'DISCONNECT')[0]);
    await new Promise((r) => setTimeout(r, 300));
    expect(eventsOf(a.id, 'DISCONNECT')).toHaveLength(1);
    expect(eventsOf(b.id, 'DISCONNECT')).toHaveLength(1);
  });

  it('binary frames close with 1003; a frame over 32 KB closes with 1009; each end invokes $disconnect once', async () => {
    const binary = await Client.open(liveUrl(runner));
    const before = eventsOf(binary.id, 'MESSAGE').length;
    binary.ws.send(Buffer.from([0, 1, 2]), { binary: true });
    expect(await binary.closedWith()).toMatchObject({ code: 1003 });
    const big = await Client.open(liveUrl(runner));
    big.ws.send('y'.repeat(32 * 1024 + 1));
    expect(await big.closedWith()).toMatchObject({ code: 1009 });
    for (const c of [binary, big]) await until(() => eventsOf(c.id, 'DISCONNECT')[0]);
    await new Promise((r) => setTimeout(r, 300));
    expect(eventsOf(binary.id, 'MESSAGE')).toHaveLength(before);
    expect(eventsOf(big.id, 'MESSAGE').filter((e) => (e.body ?? '').length > 1000)).toHaveLength(0);
    expect(eventsOf(binary.id, 'DISCONNECT')).toHaveLength(1);
    expect(eventsOf(big.id, 'DISCONNECT')).toHaveLength(1);
  });

  it('a message of up to 128 KB in frames of 32 KB passes; past 128 KB closes with 1009; sends over 128 KB get 413', async () => {
    const c = await Client.open(liveUrl(runner));
    const part = 'z'.repeat(30 * 1024);
    for (let i = 0; i < 4; i += 1) c.ws.send(part, { fin: i === 3 });
    await until(() => c.frames.some((f) => f.text.length === 4 * part.length));
    // Sending more than 128 KB to a connection: PayloadTooLargeException, the connection goes on.
    await c.ask({ op: 'big', bytes: 128 * 1024 + 1 });
    expect(JSON.parse(c.last().text)).toEqual({ error: 'PayloadTooLargeException', status: 413 });
    await expect(
      sdk.send(new PostToConnectionCommand({ ConnectionId: c.id, Data: Buffer.alloc(128 * 1024 + 1, 97) })),
    ).rejects.toBeInstanceOf(PayloadTooLargeException);
    await c.ask({ op: 'big', bytes: 128 * 1024 });
    expect(c.last().text).toHaveLength(128 * 1024);
    for (let i = 0; i < 5; i += 1) c.ws.send(part, { fin: i === 4 });
    expect(await c.closedWith()).toMatchObject({ code: 1009 });
  });

  it('any other upgrade request (curl --http2, a WebSocket elsewhere) is answered as an ordinary request', async () => {
    const answer = (path: string, upgrade: string, body?: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(
          `${runner.url}${path}`,
          {
            method: body ? 'POST' : 'GET',
            headers: {
              Connection: 'Upgrade',
              Upgrade: upgrade,
              ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(body.length) } : {}),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c) => {
              text += c;
            });
            res.on('end', () => resolve({ status: res.statusCode!, text }));
          },
        );
        req.on('upgrade', () => reject(new Error('upgraded')));
        req.on('error', reject);
        req.end(body);
      });
    const docs = await answer('/', 'h2c');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('<html');
    const elsewhere = await answer('/v1/nothing-here', 'websocket');
    // The very answer the same request gets without the upgrade (the gateway's, for an unknown route).
    const plain = await fetch(`${runner.url}/v1/nothing-here`);
    expect(elsewhere).toEqual({ status: plain.status, text: await plain.text() });
  });

  it("a function's failure reaches the client as API Gateway's message; the connection goes on", async () => {
    const c = await Client.open(liveUrl(runner));
    await c.ask({ op: 'throw' });
    expect(JSON.parse(c.last().text)).toMatchObject({ message: 'Internal server error', connectionId: c.id });
    await c.ask('still here');
    expect(c.last().text).toBe('still here');
    c.ws.close();
    await c.closedWith();
  });
});

describe('idle and duration limits, and the runner stopping', () => {
  let runner: Runner;
  beforeAll(async () => {
    process.env.LOCAL_LIVE_IDLE_SECONDS = '2';
    process.env.LOCAL_LIVE_MAX_SECONDS = '5';
    runner = await startOwnRunner({
      env: liveEnv,
      template: templateWithFixture(),
      buildDir: join(scratch, 'build-2'),
    });
  });
  afterAll(async () => {
    await runner?.close();
    delete process.env.LOCAL_LIVE_IDLE_SECONDS;
    delete process.env.LOCAL_LIVE_MAX_SECONDS;
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a quiet connection is closed after the idle time, a busy one at the duration limit (1001 both)', async () => {
    const [quiet, busy] = await Promise.all([Client.open(liveUrl(runner)), Client.open(liveUrl(runner))]);
    const opened = Date.now();
    const keepBusy = setInterval(() => busy.ws.readyState === WebSocket.OPEN && busy.ws.send('tick'), 400);
    expect(await quiet.closedWith()).toMatchObject({ code: 1001 });
    expect(busy.closed).toBeUndefined();
    expect(await busy.closedWith()).toMatchObject({ code: 1001 });
    clearInterval(keepBusy);
    expect(Date.now() - opened).toBeGreaterThan(2500);
    for (const c of [quiet, busy]) await until(() => eventsOf(c.id, 'DISCONNECT')[0]);
  });

  it('a connection that only sends the keepalive outlives the idle limit; no function hears of it', async () => {
    const seen = events().length;
    const doc = new Y.Doc();
    const statuses: string[] = [];
    // The example provider: after its join (sync step 1, echoed by the fixture) it sends nothing but
    // `{"action":"ping"}` every 0.4 s, under the 2 s idle limit.
    const provider = new LiveProvider(
      doc,
      async () => {
        statuses.push('connecting');
        return { url: liveUrl(runner), access: 'write' as const };
      },
      { WebSocket, keepaliveMs: 400 },
    );
    provider.on(
      'status',
      ({ status }: { status: string }) => status !== 'connecting' && statuses.push(status),
    );
    try {
      await until(() => statuses.includes('connected'));
      const opened = Date.now();
      await new Promise((r) => setTimeout(r, 1000));
      const joined = events().slice(seen);
      await new Promise((r) => setTimeout(r, 3200 - (Date.now() - opened))); // past the idle limit, within the 5 s
      const later = events().slice(seen);
      expect(statuses, JSON.stringify(later.map((e) => [e.requestContext, e.body]))).toEqual([
        'connecting',
        'connected',
      ]);
      expect(later.filter((e) => e.requestContext.eventType === 'CONNECT')).toHaveLength(1);
      expect(later.filter((e) => e.requestContext.eventType === 'DISCONNECT')).toEqual([]);
      // No invocation after the join: the pings reached no function.
      expect(later.length).toBe(joined.length);
      expect(later.some((e) => e.body?.includes('ping'))).toBe(false);
    } finally {
      provider.destroy();
    }
  });

  it('stopping the runner closes the open connections (1001) and invokes their $disconnect', async () => {
    const c = await Client.open(liveUrl(runner));
    await runner.close();
    expect(await c.closedWith()).toMatchObject({ code: 1001 });
    expect(eventsOf(c.id, 'DISCONNECT')).toHaveLength(1);
    runner = undefined as unknown as Runner;
  });
});
