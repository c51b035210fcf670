// What an API contributes to `npm run bench`: one BenchRoute per route of template.yaml.
import type { TestUserLike } from './context.ts';

export interface BenchRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface BenchRoute {
  /** "METHOD /template/path", exactly as in template.yaml (e.g. "GET /v1/notes/{noteId}"). */
  route: string;
  /** Tells apart several rows of one route (e.g. "page 500"). */
  label?: string;
  /** Maximum DynamoDB requests per call (the route's design budget), checked by the bench. */
  budget?: number;
  /** Most write units AWS would bill a call (infra/bench/billing.ts), checked by the bench. */
  writeUnits?: number;
  /** Most read units AWS would bill a call, checked by the bench. */
  readUnits?: number;
  /** Status every call must return. */
  expectStatus: number;
  /** Builds the i-th request (after `prepare`); may create fresh data for mutating routes. */
  request: (i: number) => Promise<BenchRequest> | BenchRequest;
}

export interface BenchContext {
  baseUrl: string;
  /** A fresh user with an API token (made through the identity service). */
  newUser(name?: string, opts?: { admin?: boolean }): Promise<TestUserLike>;
  newTeam(owner: TestUserLike, members?: TestUserLike[]): Promise<{ path: string; id: string }>;
  /** Calls the API over HTTP; JSON bodies are serialised. */
  http(
    method: string,
    path: string,
    opts?: {
      token?: string;
      body?: unknown;
      headers?: Record<string, string>;
      raw?: Buffer;
      contentType?: string;
    },
  ): Promise<{ status: number; headers: Headers; body: any }>;
  /** How many calls of each route the bench makes, warm-up included: `request(i)` gets i = 0 .. iterations-1. */
  iterations: number;
}

export type BenchScenarios = (ctx: BenchContext) => Promise<BenchRoute[]>;
