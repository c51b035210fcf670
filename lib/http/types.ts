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
