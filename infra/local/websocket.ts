// The template's WebSocket API (AWS::ApiGatewayV2::Api, ProtocolType WEBSOCKET), locally, at
// ws://localhost:<PORT>/_live, emulating API Gateway's rules:
//   - $connect is invoked with the handshake's headers and query string before the upgrade; a
//     non-2xx answer (or a failed function) refuses the upgrade with that status;
//   - each text message invokes the route its RouteSelectionExpression selects ($default here), with
//     `body` the message's text; invocations run concurrently, as API Gateway's do (no ordering);
//   - a route whose integration is MOCK (the keepalive, `{"action":"ping"}`) is answered by the
//     gateway itself: no function invoked, no log line, nothing sent back (it has no route response);
//     the frame still counts as activity against the idle limit, and as a message billed;
//   - $disconnect is invoked once for every end: the client's close, a DeleteConnection, the idle or
//     the duration limit, a refused frame, the runner stopping;
//   - text frames only (a binary message closes with 1003), frames up to 32 KB and messages up to
//     128 KB (close 1009), 10 minutes idle and 2 hours at most (close 1001; LOCAL_LIVE_IDLE_SECONDS
//     and LOCAL_LIVE_MAX_SECONDS shorten them for tests);
//   - the management API at http://127.0.0.1:<PORT>/_live/@connections/<id>, as the real
//     @aws-sdk/client-apigatewaymanagementapi calls it (SigV4-signed; an unsigned call gets 403, so a
//     web page cannot reach a connection): POST sends the body as one text frame, GET
//     describes the connection, DELETE closes it; 410 GoneException for a connection that is gone,
//     413 PayloadTooLargeException over 128 KB.
// The runner routes the upgrade and the @connections requests here (runner.ts); the functions are
// invoked through Lambdas as every other event source's are (their Timeout applies).
import { randomBytes, randomUUID } from 'node:crypto';
import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Lambdas, Outcome } from './lambdas.ts';
import { STAGE } from './event.ts';
import type { Template } from './template.ts';

/** Where the runner serves the WebSocket API and its management API. */
export const LIVE_PATH = '/_live';
/** API Gateway's WebSocket quotas. */
export const FRAME_LIMIT_BYTES = 32 * 1024;
export const MESSAGE_LIMIT_BYTES = 128 * 1024;
const IDLE_SECONDS = 600;
const MAX_SECONDS = 7200;
/** How long stopping waits for the $disconnect invocations of the connections still open. */
const CLOSE_WAIT_MS = 3000;

export interface WebSocketRoute {
  routeKey: string;
  functionId: string;
  handler: string;
}

export interface WebSocketApi {
  apiId: string;
  routeSelectionExpression: string;
  routes: Map<string, WebSocketRoute>;
  /** The route keys whose integration is MOCK: API Gateway answers them, no function runs. */
  mockRoutes: Set<string>;
}

const refTo = (value: unknown, pattern: RegExp): string | undefined =>
  pattern.exec(JSON.stringify(value ?? ''))?.[1];

/**
 * The template's WebSocket API: its routes, each to the function its AWS_PROXY integration invokes
 * (`${Function.Arn}` in the IntegrationUri). Undefined when the template has none.
 */
export function webSocketApi(t: Template): WebSocketApi | undefined {
  const entries = Object.entries(t.Resources);
  const api = entries.find(
    ([, r]) => r.Type === 'AWS::ApiGatewayV2::Api' && r.Properties?.ProtocolType === 'WEBSOCKET',
  );
  if (!api) return undefined;
  const [apiId, apiRes] = api;
  const routes = new Map<string, WebSocketRoute>();
  const mockRoutes = new Set<string>();
  for (const [, r] of entries) {
    if (r.Type !== 'AWS::ApiGatewayV2::Route' || refTo(r.Properties?.ApiId, /"Ref":"(\w+)"/) !== apiId)
      continue;
    const integrationId = refTo(r.Properties?.Target, /integrations\/\$\{(\w+)\}|"Ref":"(\w+)"/);
    const integration = integrationId ? t.Resources[integrationId] : undefined;
    if (integration?.Properties?.IntegrationType === 'MOCK') {
      mockRoutes.add(r.Properties?.RouteKey);
      continue;
    }
    const functionId = refTo(integration?.Properties?.IntegrationUri, /\$\{(\w+)\.Arn\}/);
    const fn = functionId ? t.Resources[functionId] : undefined;
    // A route whose function is not (yet) in the template is not served (cfn-lint refuses it anyway).
    if (!fn) continue;
    const handler =
      String(fn.Properties?.Handler ?? '')
        .split('.')
        .pop() || 'handler';
    routes.set(r.Properties?.RouteKey, {
      routeKey: r.Properties?.RouteKey,
      functionId: functionId!,
      handler,
    });
  }
  return {
    apiId,
    routeSelectionExpression: apiRes.Properties?.RouteSelectionExpression ?? '$request.body.action',
    routes,
    mockRoutes,
  };
}

/** Per route: invocations, their durations and what they cost (npm run bench). */
export interface LiveRouteStats {
  invocations: number;
  durations: number[];
  errors: number;
  writeUnits: number;
  readUnits: number;
  requests: number;
}

/** What API Gateway would bill: messages in 32 KB units, both ways, and connection time. */
export interface LiveStats {
  connections: number;
  messagesIn: number;
  messagesOut: number;
  connectionMs: number;
  routes: Map<string, LiveRouteStats>;
}

interface Connection {
  id: string;
  ws: WebSocket;
  connectedAt: number;
  lastActiveAt: number;
  sourceIp: string;
  userAgent: string;
  headers: Record<string, string>;
  domainName: string;
  /** A frame over the limit arrived: nothing more of this connection is forwarded. */
  refused: boolean;
  ended: boolean;
  idle: NodeJS.Timeout;
  limit: NodeJS.Timeout;
}

/** 12 characters ending in `=`, as API Gateway's connection ids are (no `/` or `+`: they go in paths). */
const connectionId = () =>
  `${randomBytes(9)
    .toString('base64')
    .slice(0, 11)
    .replace(/[+/]/g, (c) => (c === '+' ? 'A' : 'B'))}=`;

/** API Gateway's $context.requestTime: `28/Nov/2026:02:45:00 +0000`. */
const requestTime = (ms: number) => {
  const d = new Date(ms);
  const month = d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${month}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
};

/**
 * Watches a socket's incoming bytes frame by frame (headers only) and calls `tooLarge` once for a
 * data frame whose payload is over `limit`: `ws` limits whole messages, API Gateway frames too.
 */
export function frameWatcher(limit: number, tooLarge: () => void): (chunk: Buffer) => void {
  let skip = 0;
  let head = Buffer.alloc(0);
  let done = false;
  return (chunk) => {
    let i = 0;
    const take = (n: number) => {
      if (head.length < n) {
        const part = chunk.subarray(i, i + n - head.length);
        head = Buffer.concat([head, part]);
        i += part.length;
      }
      return head.length >= n;
    };
    while (i < chunk.length && !done) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
        continue;
      }
      if (!take(2)) return;
      const len7 = head[1] & 0x7f;
      const extra = len7 === 126 ? 2 : len7 === 127 ? 8 : 0;
      const need = 2 + extra + (head[1] & 0x80 ? 4 : 0);
      if (!take(need)) return;
      const length =
        len7 === 126 ? head.readUInt16BE(2) : len7 === 127 ? Number(head.readBigUInt64BE(2)) : len7;
      const opcode = head[0] & 0x0f;
      head = Buffer.alloc(0);
      if (opcode < 0x08 && length > limit) {
        done = true;
        tooLarge();
        return;
      }
      skip = length;
    }
  };
}

export class LiveGateway {
  readonly stats: LiveStats = {
    connections: 0,
    messagesIn: 0,
    messagesOut: 0,
    connectionMs: 0,
    routes: new Map(),
  };
  private readonly connections = new Map<string, Connection>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MESSAGE_LIMIT_BYTES });
  private readonly idleMs: number;
  private readonly maxMs: number;
  private readonly disconnects = new Set<Promise<unknown>>();
  /** $default invocations still running (stopping waits for them: their sends reach a live server). */
  private readonly inflight = new Set<Promise<unknown>>();
  private closing = false;

  constructor(
    private readonly api: WebSocketApi,
    private readonly lambdas: Lambdas,
    private readonly log: (line: string) => void,
  ) {
    this.idleMs = Number(process.env.LOCAL_LIVE_IDLE_SECONDS || IDLE_SECONDS) * 1000;
    this.maxMs = Number(process.env.LOCAL_LIVE_MAX_SECONDS || MAX_SECONDS) * 1000;
  }

  /** The open connections' ids. */
  get connectionIds(): string[] {
    return [...this.connections.keys()];
  }

  /** Whether a request path is the management API's (`/_live/@connections/<id>`, `@` encoded or not). */
  static managesPath(rawPath: string): boolean {
    return /^\/_live\/(@|%40)connections\//i.test(rawPath);
  }

  /** An HTTP upgrade on /_live: $connect decides; then the WebSocket is open. */
  async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    if (this.closing || !validHandshake(req)) {
      // ws answers an invalid handshake itself (400, or 426 without the Upgrade header).
      return this.wss.handleUpgrade(req, socket, head, (ws) => ws.terminate());
    }
    const id = connectionId();
    const connectedAt = Date.now();
    const headers = flatHeaders(req);
    const domainName = req.headers.host ?? 'localhost';
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query: Record<string, string> = {};
    const multiQuery: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) {
      query[k] = v;
      multiQuery[k] = [...(Object.hasOwn(multiQuery, k) ? multiQuery[k] : []), v];
    }
    const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
    const userAgent = req.headers['user-agent'] ?? '';
    const event = {
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
      ...(Object.keys(query).length
        ? { queryStringParameters: query, multiValueQueryStringParameters: multiQuery }
        : {}),
      requestContext: {
        ...this.context('$connect', 'CONNECT', id, connectedAt, domainName),
        identity: { sourceIp, userAgent },
      },
      isBase64Encoded: false,
    };
    const outcome = await this.invoke('$connect', event);
    const status = outcome.kind === 'ok' ? statusOf(outcome.result) : 500;
    if (status < 200 || status > 299) {
      this.log(`CONNECT ${LIVE_PATH} -> ${status}`);
      const body = outcome.kind === 'ok' ? bodyOf(outcome.result) : '{"message": "Internal server error"}';
      if (socket.writable)
        socket.end(
          `HTTP/1.1 ${status} ${statusText(status)}\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      return;
    }
    if (socket.destroyed || !socket.writable || this.closing) {
      // Gone while $connect ran: the connection existed for the function, so it hears of its end.
      socket.destroy();
      return this.disconnected({ id, connectedAt, domainName, headers } as Connection, 1006, 'Going away');
    }
    this.wss.handleUpgrade(req, socket, head, (ws) =>
      this.open(ws, socket, head, {
        id,
        connectedAt,
        sourceIp,
        userAgent,
        headers,
        domainName,
      }),
    );
  }

  private open(
    ws: WebSocket,
    socket: Duplex,
    head: Buffer,
    c: Pick<Connection, 'id' | 'connectedAt' | 'sourceIp' | 'userAgent' | 'headers' | 'domainName'>,
  ) {
    const conn: Connection = {
      ...c,
      ws,
      lastActiveAt: Date.now(),
      refused: false,
      ended: false,
      idle: setTimeout(() => ws.close(1001, 'Going away'), this.idleMs),
      limit: setTimeout(() => ws.close(1001, 'Going away'), this.maxMs),
    };
    this.connections.set(conn.id, conn);
    this.stats.connections += 1;
    this.log(`CONNECT ${LIVE_PATH} -> ${conn.id}`);
    const watch = frameWatcher(FRAME_LIMIT_BYTES, () => {
      conn.refused = true;
      ws.close(1009, 'Message too big');
    });
    if (head.length) watch(head);
    socket.prependListener('data', watch);
    ws.on('error', () => {}); // ws closes with 1009/1002 itself; 'close' follows
    ws.on('message', (data: Buffer, isBinary) => {
      if (conn.refused || conn.ended) return;
      if (isBinary) {
        conn.refused = true;
        return ws.close(1003, 'Binary frames are not supported');
      }
      this.touch(conn);
      this.stats.messagesIn += Math.max(1, Math.ceil(data.length / FRAME_LIMIT_BYTES));
      const pending = this.message(conn, data.toString('utf8'));
      this.inflight.add(pending);
      void pending.finally(() => this.inflight.delete(pending));
    });
    ws.on('close', (code, reason) => {
      void this.disconnected(conn, code, reason.toString() || 'Client-side close frame status code');
    });
  }

  private touch(conn: Connection) {
    conn.lastActiveAt = Date.now();
    conn.idle.refresh();
  }

  /** The route $request.body.<path> selects (when the body is JSON naming one), else $default. */
  private select(body: string): string | undefined {
    const path = /^\$request\.body\.([\w.]+)$/.exec(this.api.routeSelectionExpression)?.[1];
    if (path) {
      try {
        let value: unknown = JSON.parse(body);
        for (const key of path.split('.')) value = (value as Record<string, unknown>)?.[key];
        const known = this.api.routes.has(value as string) || this.api.mockRoutes.has(value as string);
        if (typeof value === 'string' && known && !value.startsWith('$')) return value;
      } catch {
        // not JSON: $default
      }
    }
    return this.api.routes.has('$default') ? '$default' : undefined;
  }

  private async message(conn: Connection, body: string) {
    const requestId = randomUUID();
    const routeKey = this.select(body);
    if (!routeKey)
      return this.send(conn, JSON.stringify({ message: 'Forbidden', connectionId: conn.id, requestId }));
    if (this.api.mockRoutes.has(routeKey)) return;
    const event: APIGatewayProxyWebsocketEventV2 = {
      requestContext: {
        ...this.context(routeKey, 'MESSAGE', conn.id, conn.connectedAt, conn.domainName, requestId),
        messageId: connectionId(),
      },
      body,
      isBase64Encoded: false,
    };
    const outcome = await this.invoke(routeKey, event);
    // With no route response, a function's answer goes nowhere; its failure reaches the client as
    // API Gateway's own message.
    if (outcome.kind !== 'ok')
      this.send(conn, JSON.stringify({ message: 'Internal server error', connectionId: conn.id, requestId }));
  }

  private send(conn: Connection, data: Buffer | string) {
    if (conn.ended || conn.ws.readyState !== conn.ws.OPEN) return false;
    conn.ws.send(data, { binary: false });
    this.stats.messagesOut += Math.max(1, Math.ceil(Buffer.byteLength(data) / FRAME_LIMIT_BYTES));
    return true;
  }

  private async disconnected(conn: Connection, code: number, reason: string) {
    if (conn.ended) return;
    conn.ended = true;
    clearTimeout(conn.idle);
    clearTimeout(conn.limit);
    this.connections.delete(conn.id);
    this.stats.connectionMs += Date.now() - conn.connectedAt;
    this.log(`DISCONNECT ${conn.id} (${code})`);
    const event = {
      headers: { Host: conn.domainName, 'x-api-key': '', 'X-Forwarded-For': '', 'x-restapi': '' },
      multiValueHeaders: {
        Host: [conn.domainName],
        'x-api-key': [''],
        'X-Forwarded-For': [''],
        'x-restapi': [''],
      },
      requestContext: {
        ...this.context('$disconnect', 'DISCONNECT', conn.id, conn.connectedAt, conn.domainName),
        disconnectStatusCode: code,
        disconnectReason: reason,
      },
      isBase64Encoded: false,
    };
    const pending = this.invoke('$disconnect', event);
    this.disconnects.add(pending);
    await pending;
    this.disconnects.delete(pending);
  }

  private context(
    routeKey: string,
    eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT',
    connectionId: string,
    connectedAt: number,
    domainName: string,
    requestId = randomUUID(),
  ) {
    const now = Date.now();
    return {
      routeKey,
      eventType,
      extendedRequestId: requestId,
      requestTime: requestTime(now),
      messageDirection: 'IN' as const,
      stage: STAGE,
      connectedAt,
      requestTimeEpoch: now,
      requestId,
      domainName,
      connectionId,
      apiId: this.api.apiId.toLowerCase(),
    };
  }

  private async invoke(routeKey: string, event: unknown): Promise<Outcome> {
    const route = this.api.routes.get(routeKey);
    if (!route)
      return {
        kind: 'ok',
        result: { statusCode: 200, body: '' },
        meter: { requests: 0, capacity: 0, operations: [] },
      };
    const started = performance.now();
    const outcome = await this.lambdas.invokeEvent(route.functionId, route.handler, event);
    const s =
      this.stats.routes.get(routeKey) ??
      this.stats.routes
        .set(routeKey, { invocations: 0, durations: [], errors: 0, writeUnits: 0, readUnits: 0, requests: 0 })
        .get(routeKey)!;
    s.invocations += 1;
    s.durations.push(performance.now() - started);
    if (outcome.kind === 'ok') {
      s.requests += outcome.meter.requests;
      s.writeUnits += outcome.meter.writeUnits ?? 0;
      s.readUnits += outcome.meter.readUnits ?? 0;
    } else {
      s.errors += 1;
      console.error(`[runner] ${route.functionId} (${routeKey}): ${describe(outcome)}`);
    }
    return outcome;
  }

  /** The management API: POST (send), GET (describe), DELETE (close) /_live/@connections/<id>. */
  async manage(req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<void> {
    const id = decodeURIComponent(rawPath.replace(/^\/_live\/(@|%40)connections\//i, ''));
    const method = (req.method ?? 'GET').toUpperCase();
    const answer = (status: number, body?: unknown, errorType?: string) => {
      const text = body === undefined ? '' : JSON.stringify(body);
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'x-amzn-RequestId': randomUUID(),
        ...(errorType ? { 'x-amzn-ErrorType': errorType } : {}),
        'Content-Length': String(Buffer.byteLength(text)),
      });
      res.end(text);
    };
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= MESSAGE_LIMIT_BYTES) chunks.push(chunk);
    }
    if (!['POST', 'GET', 'DELETE'].includes(method) || !id || id.includes('/'))
      return answer(403, { message: 'Forbidden' }, 'ForbiddenException');
    // As API Gateway: only a SigV4-signed call (the SDK's) reaches a connection; never a web page's.
    if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 '))
      return answer(403, { message: 'Missing Authentication Token' }, 'ForbiddenException');
    const conn = this.connections.get(id);
    if (!conn || conn.ended || conn.ws.readyState !== conn.ws.OPEN) return answer(410, {}, 'GoneException');
    if (method === 'GET')
      return answer(200, {
        connectedAt: new Date(conn.connectedAt).toISOString(),
        identity: { sourceIp: conn.sourceIp, userAgent: conn.userAgent },
        lastActiveAt: new Date(conn.lastActiveAt).toISOString(),
      });
    if (method === 'DELETE') {
      conn.ws.close(1000, 'Connection closed by the server');
      return answer(204);
    }
    if (size > MESSAGE_LIMIT_BYTES)
      return answer(
        413,
        { message: `Message too long (${size} bytes; at most ${MESSAGE_LIMIT_BYTES})` },
        'PayloadTooLargeException',
      );
    this.send(conn, Buffer.concat(chunks));
    this.touch(conn);
    return answer(200);
  }

  /** Closes every connection (1001, as API Gateway going away); waits for their $disconnect and the messages in flight. */
  async close(): Promise<void> {
    this.closing = true;
    for (const conn of this.connections.values()) {
      conn.ws.close(1001, 'Going away');
      void this.disconnected(conn, 1001, 'Going away');
      setTimeout(() => conn.ws.terminate(), 200).unref();
    }
    await Promise.race([
      Promise.all([...this.disconnects, ...this.inflight]),
      new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
    ]);
    this.wss.close();
  }
}

const flatHeaders = (req: IncomingMessage): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (let n = 0; n < req.rawHeaders.length; n += 2) headers[req.rawHeaders[n]] = req.rawHeaders[n + 1];
  headers['X-Forwarded-For'] ??= req.socket.remoteAddress ?? '127.0.0.1';
  headers['X-Forwarded-Proto'] ??= 'http';
  return headers;
};

/** The handshake ws would accept (else it answers the refusal itself, and $connect is never invoked). */
const validHandshake = (req: IncomingMessage) =>
  req.method === 'GET' &&
  req.headers.upgrade?.toLowerCase() === 'websocket' &&
  /^[+/0-9A-Za-z]{22}==$/.test(req.headers['sec-websocket-key'] ?? '') &&
  ['8', '13'].includes(req.headers['sec-websocket-version'] ?? '');

const statusOf = (result: unknown): number => {
  const status = (result as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : 200;
};
const bodyOf = (result: unknown): string => {
  const body = (result as { body?: unknown } | null)?.body;
  return typeof body === 'string' ? body : '';
};
const statusText = (status: number) => STATUS_CODES[status] ?? 'Error';
const describe = (o: Outcome) =>
  o.kind === 'timeout' ? `timed out after ${o.timeoutMs} ms` : o.kind === 'ok' ? 'ok' : o.reason;
