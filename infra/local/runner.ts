// The Docker-free local API Gateway: mounts every Api event of every function in template.yaml on
// one HTTP port, turns each request into an API Gateway REST (v1) proxy event, invokes the
// function in an environment of its own (lambdas.ts: build, init, invoke; a worker thread) and writes its result back. What API
// Gateway refuses by itself (malformed path, body over 10 MB, unknown route, a function that cannot
// run) gets the template's gateway responses (gateway.ts). The runner's own pages: endpoints.ts.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { DynamoMeter } from '../../lib/data/metering.ts';
import { Bundles } from './bundles.ts';
import type { FunctionOutput } from './environments.ts';
import { localEndpoints, type LocalEndpoint } from './endpoints.ts';
import { BodyTooLarge, discardRest, proxyEvent, readBody } from './event.ts';
import { startLocalSecretsManager } from './secrets-manager.ts';
import { assertGatewayResponsesRenderable } from './vtl.ts';
import { Gateway, type GatewayResponseType } from './gateway.ts';
import { Lambdas, PAYLOAD_LIMIT_BYTES, payloadBytes } from './lambdas.ts';
import { type EventPipeline, startEventPipeline } from './pipeline.ts';
import { type CompiledRoute, Router } from './routes.ts';
import { liveEditor } from './live-editor.ts';
import { passkeyPage } from './passkey-page.ts';
import { LIVE_PATH, LiveGateway, webSocketApi } from './websocket.ts';
import { localClientConfig } from './services.ts';
import {
  binaryMediaTypes,
  listFunctions,
  listRoutes,
  loadTemplate,
  type Route,
  type Template,
} from './template.ts';

export { STAGE } from './event.ts';

export interface RunnerOptions {
  port: number;
  host?: string;
  /**
   * Take the port only when listen() is called (npm start: once everything is ready), so that a
   * request during the start-up is refused at once rather than accepted by a process too busy
   * starting to answer it. Needs a fixed port.
   */
  listenLater?: boolean;
  env: Record<string, string>;
  s3Endpoint: string;
  bucketName: string;
  /** Rebuild functions whose sources change (npm start). */
  watch?: boolean;
  template?: Template;
  /** Where bundles are written (removed on close); default: the OS temp dir. */
  buildDir?: string;
  /** Where the SQS stand-in keeps its messages across restarts (npm start: LOCAL_DATA_DIR); none: in memory. */
  queueDir?: string;
  log?: (line: string) => void;
  /** Where the functions' own output goes, line by line (default: printed, as npm start shows it). */
  functionOutput?: FunctionOutput;
  /**
   * Each function gets this many times its Timeout (default 1: as Lambda). Only the test stack's
   * shared runner sets more (test/support/global-setup.ts, docs/testing.md): there two test
   * workers, every function and DynamoDB Local share 2 cores, and an emulator answering in seconds
   * must not pass for a function past its deadline. Tests of the Timeout run runners of their own at 1.
   */
  timeoutScale?: number;
}

export interface Runner {
  url: string;
  port: number;
  routes: Route[];
  close(): Promise<void>;
  bundles: Bundles;
  /** The stream and queue event sources (pipeline.ts). */
  events: EventPipeline;
  /** Takes the port and answers from then on (RunnerOptions.listenLater; done already without it). */
  listen(): Promise<void>;
  /** Starts a spare function environment, its packages imported (after buildAll: quick cold starts). */
  warm(): Promise<void>;
  /** The template's WebSocket API at /_live (websocket.ts), when it has one. */
  live?: LiveGateway;
}

interface Request {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  url: URL;
  requestId: string;
  started: number;
}

/** A request the gateway answers itself; `path` is what API Gateway reports as $context.path. */
type Refusal = {
  apiId: string;
  type: GatewayResponseType;
  /** API Gateway's status for this case when the API sets none for the type (default: the type's). */
  status?: number;
  resourcePath: string;
  message: string;
  path?: string;
};

class LocalGateway {
  readonly router: Router;
  private readonly gateway: Gateway;
  readonly lambdas: Lambdas;
  private readonly binaryTypes = new Map<string, string[]>();

  constructor(
    template: Template,
    private readonly endpoints: LocalEndpoint[],
    bundles: Bundles,
    private readonly log: (line: string) => void,
    functionOutput?: FunctionOutput,
    timeoutScale = 1,
  ) {
    this.router = new Router(listRoutes(template));
    this.gateway = new Gateway(template);
    this.lambdas = new Lambdas(template, bundles, log, functionOutput, undefined, timeoutScale);
    for (const api of this.router.apiIds) this.binaryTypes.set(api, binaryMediaTypes(api, template));
  }

  async handle(r: Request): Promise<void> {
    const raw = r.url.pathname;
    let path: string;
    try {
      path = decodeURIComponent(raw);
    } catch {
      return this.refuse(r, {
        apiId: this.router.apiOf(raw),
        type: 'BAD_REQUEST_PARAMETERS',
        resourcePath: '',
        message: 'Malformed percent-encoding in the request path',
        path: raw,
      });
    }
    if (!wellEncoded(r.url.search.slice(1))) {
      // API Gateway refuses it too (400), before any function runs.
      return this.refuse(r, {
        apiId: this.router.apiOf(raw),
        type: 'BAD_REQUEST_PARAMETERS',
        resourcePath: '',
        message: 'Malformed percent-encoding in the query string',
        path,
      });
    }
    const endpoint = this.endpoints.find((e) => e.matches(r.method, path));
    if (endpoint) return endpoint.serve(r.req, r.res, path);
    const match = this.router.match(r.method, raw);
    if (match.kind === 'none') {
      return this.refuse(r, {
        apiId: match.apiId,
        type: 'MISSING_AUTHENTICATION_TOKEN',
        resourcePath: match.resourcePath,
        message: 'Missing Authentication Token',
        path,
      });
    }
    return this.invoke(r, match.route, match.pathParameters, path);
  }

  private async invoke(
    r: Request,
    route: CompiledRoute,
    pathParameters: Record<string, string>,
    path: string,
  ) {
    let body: Buffer;
    try {
      body = await readBody(r.req);
    } catch (err) {
      if (!(err instanceof BodyTooLarge)) throw err;
      return this.refuse(
        r,
        {
          apiId: route.apiId,
          type: 'REQUEST_TOO_LARGE',
          resourcePath: route.path,
          message: 'Request Too Long',
          path,
        },
        discardRest(r.req),
      );
    }
    const event = proxyEvent({
      req: r.req,
      url: r.url,
      path,
      method: r.method,
      requestId: r.requestId,
      body,
      route,
      pathParameters,
      binaryTypes: this.binaryTypes.get(route.apiId) ?? [],
    });
    if (payloadBytes(event) > PAYLOAD_LIMIT_BYTES) {
      // Lambda refuses the invocation (RequestEntityTooLargeException); API Gateway answers 413.
      this.lambdas.report(route.functionId, `[runner] ${route.functionId}: ${LAMBDA_REFUSES.request}`);
      return this.refuse(r, {
        apiId: route.apiId,
        type: 'REQUEST_TOO_LARGE',
        resourcePath: route.path,
        message: 'Request Too Long',
        path,
      });
    }
    const outcome = await this.lambdas.invoke(route, event);
    if (outcome.kind === 'ok' && payloadBytes(outcome.result) > PAYLOAD_LIMIT_BYTES) {
      // The function answered, but Lambda cannot return it: API Gateway's INTEGRATION_FAILURE, 502
      // (or the API's gateway response for it).
      this.lambdas.report(route.functionId, `[runner] ${route.functionId}: ${LAMBDA_REFUSES.response}`);
      return this.refuse(r, {
        apiId: route.gatewayApiId,
        type: 'INTEGRATION_FAILURE',
        status: 502,
        resourcePath: route.path,
        message: 'Internal server error',
        path,
      });
    }
    if (outcome.kind === 'ok') return this.reply(r, route, outcome.result, outcome.meter, path);
    if (outcome.kind === 'timeout')
      this.lambdas.report(
        route.functionId,
        `[runner] ${route.functionId} timed out after ${outcome.timeoutMs} ms`,
      );
    else if (!(outcome.kind === 'error' && outcome.crash))
      this.lambdas.report(route.functionId, `[runner] ${outcome.reason}`); // a crash was reported as it happened
    const type = OUTCOME_RESPONSE[outcome.kind];
    if (r.res.headersSent || r.res.destroyed) return;
    return this.refuse(r, {
      apiId: route.gatewayApiId,
      type,
      resourcePath: route.path,
      message: 'Internal server error',
      path,
    });
  }

  private reply(
    r: Request,
    route: CompiledRoute,
    result: APIGatewayProxyResult,
    meter: DynamoMeter,
    path: string,
  ) {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(result.headers ?? {})) out[k] = String(v);
    for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) out[k] = v.map(String);
    out['X-Local-Dynamo-Requests'] = String(meter.requests);
    out['X-Local-Dynamo-Capacity'] = String(meter.capacity);
    // Billed units (infra/bench/billing.ts), counted only while a biller is installed (infra/bench/biller.ts).
    out['X-Local-Dynamo-Write-Units'] = String(meter.writeUnits ?? 0);
    out['X-Local-Dynamo-Read-Units'] = String(meter.readUnits ?? 0);
    out['X-Local-Duration-Ms'] = (performance.now() - r.started).toFixed(2);
    const payload =
      result.body === undefined || result.body === null
        ? Buffer.alloc(0)
        : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
    this.log(
      `${r.method} ${path} -> ${route.functionId} ${result.statusCode} (${meter.requests} DynamoDB requests)`,
    );
    r.res.writeHead(result.statusCode, out).end(r.method === 'HEAD' ? undefined : payload);
  }

  /** The gateway's answer; with `drained`, ended only once the refused body is read (gateway.ts). */
  private refuse(r: Request, f: Refusal, drained?: Promise<void>): Promise<void> {
    const path = f.path ?? r.url.pathname;
    this.log(`${r.method} ${path} -> ${f.type}`);
    const ctx = {
      requestId: r.requestId,
      resourcePath: f.resourcePath,
      method: r.method,
      path,
      message: f.message,
      status: f.status,
    };
    return this.gateway.respond(r.res, f.apiId, f.type, ctx, drained);
  }

  /**
   * A request Node's HTTP parser refused (`clientError`): the answer API Gateway's front end gives,
   * in the dialect of the API the request line names (a URL or headers over Node's 16 KB: 414 or 431),
   * written on the socket, which is then closed.
   */
  async refuseUnparsed(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): Promise<void> {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const head = (err.rawPacket ?? Buffer.alloc(0)).subarray(0, MAX_HEADER_BYTES).toString('latin1');
    const lineEnd = head.indexOf('\r\n');
    const [method = 'GET', target = '/'] = head.slice(0, lineEnd < 0 ? undefined : lineEnd).split(' ');
    const path = requestUrl(target).pathname;
    const type =
      err.code !== 'HPE_HEADER_OVERFLOW'
        ? 'MALFORMED_REQUEST'
        : lineEnd < 0
          ? 'URI_TOO_LONG'
          : 'REQUEST_HEADER_FIELDS_TOO_LARGE';
    const message = {
      MALFORMED_REQUEST: 'The request is not valid HTTP',
      URI_TOO_LONG: `The request URL is longer than ${MAX_HEADER_BYTES} bytes`,
      REQUEST_HEADER_FIELDS_TOO_LARGE: `The request headers are larger than ${MAX_HEADER_BYTES} bytes`,
    }[type];
    const requestId = randomUUID();
    const apiId = this.router.apiOf(path);
    this.log(`${method.slice(0, 16)} ${path.slice(0, 100)} -> ${type} (${err.code})`);
    const { status, headers, body } = await this.gateway.render(apiId, type, {
      requestId,
      resourcePath: '',
      method: method.slice(0, 16),
      path: path.slice(0, 200),
      message,
    });
    const lines = Object.entries({ ...headers, Connection: 'close' }).map(([k, v]) => `${k}: ${v}`);
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
  }

  /** Last resort: a bug in the runner still answers in the API's dialect, as a gateway 5xx. */
  failed(r: Request, err: unknown): Promise<void> {
    console.error('[runner] unexpected', err);
    return this.refuse(r, {
      apiId: this.router.apiOf(r.url.pathname),
      type: 'INTEGRATION_FAILURE',
      resourcePath: '',
      message: 'Internal server error',
    }).catch(() => {
      r.res.destroy();
    });
  }
}

/** Lambda's errors for a payload over its limit (PAYLOAD_LIMIT_BYTES), as the runner logs them. */
const LAMBDA_REFUSES = {
  request: `Request payload size exceeded maximum allowed payload size (${PAYLOAD_LIMIT_BYTES} bytes).`,
  response: `Lambda Customer Function Error: Response payload size exceeded maximum allowed payload size (${PAYLOAD_LIMIT_BYTES} bytes).`,
};

/** The gateway response for each way an invocation can fail (API Gateway's, for a Lambda proxy). */
const OUTCOME_RESPONSE = {
  timeout: 'INTEGRATION_TIMEOUT',
  failure: 'INTEGRATION_FAILURE',
  error: 'FUNCTION_ERROR',
} as const satisfies Record<string, GatewayResponseType>;

/** Node's limit on a request's head (its --max-http-header-size default): a request line that does not
 * end within it is a URL too long (414); otherwise the headers are too large (431). */
const MAX_HEADER_BYTES = 16 * 1024;

/** Whether every name and value of a query string is valid percent-encoded UTF-8. */
const wellEncoded = (query: string): boolean => {
  try {
    for (const part of query.split(/[&=]/)) decodeURIComponent(part.replaceAll('+', ' '));
    return true;
  } catch {
    return false;
  }
};

/** The request target as a URL on this host (`//x` and `*` are paths here, never another host). */
const requestUrl = (target = '/'): URL => {
  try {
    return new URL(`http://localhost${target.startsWith('/') ? target : `/${target}`}`);
  } catch {
    return new URL('http://localhost/');
  }
};

const listen = (server: Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

export async function startRunner(opts: RunnerOptions): Promise<Runner> {
  const template = opts.template ?? loadTemplate();
  const log = opts.log ?? (() => {});
  Object.assign(process.env, opts.env);
  assertGatewayResponsesRenderable(template);
  const secrets = await startLocalSecretsManager(opts.env); // Secrets Manager stand-in (GetSecretValue)
  Object.assign(process.env, secrets.env);
  const bundles = new Bundles(listFunctions(template), {
    buildDir: opts.buildDir ?? join(tmpdir(), 'tri-api-build'),
    log,
  });
  await bundles.start(opts.watch ?? false);
  const s3 = new S3Client({ ...localClientConfig(opts.s3Endpoint), forcePathStyle: true });
  const server = createServer();
  const host = opts.host ?? '127.0.0.1';
  try {
    if (!opts.listenLater) await listen(server, opts.port, host);
  } catch (err) {
    await bundles.stop();
    await secrets.close();
    s3.destroy();
    throw err;
  }
  const port = opts.listenLater ? opts.port : (server.address() as { port: number }).port;
  const url = `http://localhost:${port}`;
  // The live editor and passkey examples (live-editor.ts, passkey-page.ts) beside the runner's own pages.
  const endpoints = [
    ...localEndpoints({ baseUrl: url, s3, bucketName: opts.bucketName }),
    liveEditor(),
    passkeyPage(),
  ];
  const gateway = new LocalGateway(template, endpoints, bundles, log, opts.functionOutput, opts.timeoutScale);
  // Streams and queues (webhook events): pipeline.ts.
  const pipeline = await startEventPipeline({
    template,
    lambdas: gateway.lambdas,
    env: opts.env,
    log,
    queueDir: opts.queueDir,
  });
  // The WebSocket API (websocket.ts): upgrades on /_live and its @connections management API.
  const liveApi = webSocketApi(template);
  const live = liveApi ? new LiveGateway(liveApi, gateway.lambdas, log) : undefined;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (live && requestUrl(req.url).pathname === LIVE_PATH)
      return void live.upgrade(req, socket, head).catch(() => socket.destroy());
    // Any other upgrade (curl's `Upgrade: h2c`, a WebSocket elsewhere) is an ordinary request, as it
    // was without an upgrade listener: answered on its socket, which then closes. The parser has let
    // go of it, so its body is what came with the head.
    if (head.length) req.push(head);
    req.push(null);
    const res = new ServerResponse(req);
    res.assignSocket(socket as Socket);
    res.shouldKeepAlive = false;
    res.on('finish', () => socket.end());
    server.emit('request', req, res);
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (live && LiveGateway.managesPath(requestUrl(req.url).pathname))
      return void live.manage(req, res, requestUrl(req.url).pathname).catch(() => res.destroy());
    const r: Request = {
      req,
      res,
      method: (req.method ?? 'GET').toUpperCase(),
      requestId: randomUUID(),
      url: requestUrl(req.url),
      started: performance.now(),
    };
    gateway.handle(r).catch((err) => gateway.failed(r, err));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    gateway.refuseUnparsed(err, socket).catch(() => socket.destroy());
  });
  server.keepAliveTimeout = 5_000;
  return {
    url,
    port,
    routes: gateway.router.routes,
    bundles,
    events: pipeline,
    warm: () => gateway.lambdas.warm(),
    live,
    listen: async () => {
      if (!server.listening) await listen(server, port, host);
    },
    close: async () => {
      await live?.close();
      server.closeAllConnections();
      // A server never listening closes at once (with an error that is of no interest here).
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pipeline.stop();
      await gateway.lambdas.close();
      await bundles.stop();
      await secrets.close();
      s3.destroy();
    },
  };
}
