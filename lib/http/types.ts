import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Principal } from '../domain/principal.ts';

export type ApiEvent = APIGatewayProxyEvent;
export type ApiResult = APIGatewayProxyResult;

/** What an operation sees: parsed, validated input, lower-cased headers, the caller if authenticated. */
export interface HttpRequest<B = unknown, Q = unknown, P = unknown> {
  body: B;
  query: Q;
  path: P;
  headers: Record<string, string | undefined>;
  principal: Principal;
  requestId: string;
  event: ApiEvent;
  context: Context;
}

/** What an operation returns; the dialect middleware serialises it. */
export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A body sent as it is, not in the dialect's JSON (with its own Content-Type in `headers`). */
  raw?: string;
}

export const ok = (body: unknown, headers?: Record<string, string>): HttpResult => ({
  status: 200,
  body,
  headers,
});
export const created = (body: unknown, headers?: Record<string, string>): HttpResult => ({
  status: 201,
  body,
  headers,
});
export const accepted = (body: unknown, headers?: Record<string, string>): HttpResult => ({
  status: 202,
  body,
  headers,
});
export const noContent = (headers?: Record<string, string>): HttpResult => ({ status: 204, headers });
export const notModified = (headers?: Record<string, string>): HttpResult => ({ status: 304, headers });
/** 200 with one JSON document per line (application/x-ndjson). */
export const ndjson = (lines: unknown[]): HttpResult => ({
  status: 200,
  raw: lines.map((l) => `${JSON.stringify(l)}\n`).join(''),
  headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8' },
});
