// OpenAPI 3.1 documents are generated from the same valibot schemas that validate requests
// (@valibot/to-json-schema emits JSON Schema 2020-12, OpenAPI 3.1's dialect). Paths are the full
// paths of template.yaml (e.g. /v1/notes/{noteId}); the server is the stack's root URL.
import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { RouteRow } from '../../functions/route-table.ts';
import { STRICT_KEYS } from '../../lib/domain/schema.ts';

type Json = Record<string, unknown>;

/**
 * The documents as zod wrote them, which readers render better: `required: []` says nothing and is
 * left out; a constant says its type (`{type: "string", const: "user"}`); an `anyOf` of bare types
 * (`[{type: 'string'}, {type: 'null'}]`, a nullable) is spelled `type: ['string', 'null']` (a branch
 * with any other keyword stays in anyOf).
 */
const tidy = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  let out: Json = {};
  for (const [k, val] of Object.entries(node)) {
    if (k === 'required' && Array.isArray(val) && val.length === 0) continue;
    out[k] = tidy(val);
  }
  if ('const' in out && !('type' in out) && ['string', 'number', 'boolean'].includes(typeof out.const))
    out = { type: typeof out.const, ...out };
  const branches = out.anyOf;
  if (out.type !== undefined || !Array.isArray(branches) || branches.length === 0) return out;
  const types: string[] = [];
  for (const branch of branches as Json[]) {
    const keys = Object.keys(branch ?? {});
    if (keys.length !== 1 || keys[0] !== 'type') return out;
    for (const t of ([] as unknown[]).concat(branch.type)) {
      if (typeof t !== 'string') return out;
      if (!types.includes(t)) types.push(t);
    }
  }
  const { anyOf: _, ...rest } = out;
  return { ...rest, type: types.length === 1 ? types[0] : types };
};

const convert = (s: v.GenericSchema, typeMode: 'input' | 'output'): Json => {
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    typeMode,
    // Checks JSON Schema cannot say (a refinement, a transform) are left out, as they always were.
    errorMode: 'ignore',
    // lib/domain/schema.ts's strictObject refuses unknown keys with its own check.
    overrideAction: ({ valibotAction, jsonSchema }) =>
      valibotAction.type === STRICT_KEYS ? { ...jsonSchema, additionalProperties: false } : undefined,
  };
  const out = toJsonSchema(s, config) as Json;
  delete out.$schema;
  return tidy(out) as Json;
};

/** A schema as the API answers it (after transforms). */
export const schema = (s: v.GenericSchema): Json => convert(s, 'output');
/** A schema as a client sends it (before transforms: a query's integer is a string on the wire). */
export const inputSchema = (s: v.GenericSchema): Json => convert(s, 'input');

const isSchema = (s: unknown): s is v.GenericSchema =>
  typeof s === 'object' && s !== null && (s as { kind?: unknown }).kind === 'schema';

export const json = (s: v.GenericSchema | Json, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: isSchema(s) ? schema(s) : s } },
});

export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/**
 * One operation of a document. Every member a reader needs is required (test/docs/openapi-documents.test.ts
 * checks the built documents): a unique `operationId` (HackMD's names for Notes), a one-line `summary`,
 * a `description` (what it does, its rules, what each error means), and one tag of the document's
 * `tags` (Swagger UI groups operations by it). `security: []` marks a public operation; a document
 * built with `security: false` gives it to every operation.
 */
export interface Operation<Tag extends string = string> {
  operationId: string;
  summary: string;
  description: string;
  tags: [Tag];
  security?: [];
  parameters?: readonly unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  /** Specification extensions (`x-extension: true` marks a route HackMD's API does not have). */
  [extension: `x-${string}`]: unknown;
}
/**
 * A routed operation as a builder writes it: its method and path are its key, its `operationId`,
 * `summary` and `tags` are its route row's (functions/<api>/routes.ts), written there only;
 * `document` adds them. The rest is required as in `Operation`, so one without a description or
 * responses fails `npm run typecheck`.
 */
export type RoutedOperation = Omit<Operation, 'operationId' | 'summary' | 'tags'> & {
  operationId?: never;
  summary?: never;
  tags?: never;
};
export type PathItem = Partial<Record<Method, RoutedOperation>>;
/** A webhook (what the API sends) has no route row: it states its operationId, summary and tags. */
export type WebhookItem<Tag extends string> = Partial<Record<Method, Operation<Tag>>>;

export interface DocumentInput<Tag extends string> {
  title: string;
  version: string;
  description: string;
  /** Every tag an operation may carry, with its description; the document lists those in use. */
  tags: Record<Tag, string>;
  /** The API's route rows: one operation of `paths` per row, both ways (`document` throws otherwise). */
  routes: readonly RouteRow[];
  paths: Record<string, PathItem>;
  /** What the API sends (OpenAPI 3.1 `webhooks`), not what it answers. */
  webhooks?: Record<string, WebhookItem<NoInfer<Tag>>>;
  components?: Record<string, unknown>;
  /** true: every operation needs `Authorization: Bearer <token>` unless it says `security: []`. */
  security: boolean;
}

/**
 * The operation of `paths` at `method path` with its row's operationId, summary and tags, in the
 * documents' order (operationId, summary, description, tags, the rest).
 */
function fromRow<Tag extends string>(
  input: DocumentInput<Tag>,
  method: string,
  path: string,
  op: RoutedOperation,
) {
  const row = input.routes.find((r) => r.method === method.toUpperCase() && r.path === path);
  if (!row) throw new Error(`${input.title}: ${method.toUpperCase()} ${path} has no route row`);
  const [tag, ...more] = row.tags;
  if (more.length > 0 || !Object.hasOwn(input.tags, tag))
    throw new Error(
      `${input.title}: ${row.operationId} needs one tag of the document's tags, not ${row.tags}`,
    );
  const { description, ...rest } = op;
  const full = {
    operationId: row.operationId,
    summary: row.summary,
    description,
    tags: [tag as Tag],
    ...rest,
  };
  return input.security || op.security ? full : { ...full, security: [] as [] };
}

/** Where the deployed stages answer (the local runner serves each document with itself first). */
const DEPLOYED_SERVER = {
  url: 'https://{api}.execute-api.{region}.amazonaws.com/{stage}',
  description: 'A deployed stack (the API ids are outputs of the stack)',
  variables: {
    api: { default: 'api-id', description: 'The REST API id (NotesApiUrl, NewsApiUrl, BankApiUrl outputs)' },
    region: { default: 'us-east-1', description: "The stack's region" },
    stage: { default: 'live', description: 'The stage name' },
  },
};

export function document<Tag extends string>(input: DocumentInput<Tag>) {
  const paths = Object.fromEntries(
    Object.entries(input.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, RoutedOperation>).map(([method, op]) => [
          method,
          fromRow(input, method, path, op),
        ]),
      ),
    ]),
  );
  const documented = new Set(
    Object.entries(input.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    ),
  );
  const missing = input.routes.filter((r) => !documented.has(`${r.method} ${r.path}`));
  if (missing.length > 0)
    throw new Error(
      `${input.title}: rows without their operation in paths: ${missing.map((r) => r.operationId)}`,
    );
  const usedTags = new Set([
    ...input.routes.map((r) => r.tags[0]),
    ...Object.values(input.webhooks ?? {}).flatMap((item) =>
      Object.values(item as Record<string, Operation<Tag>>).map((op) => op.tags[0]),
    ),
  ]);
  return {
    openapi: '3.1.0',
    info: { title: input.title, version: input.version, description: input.description },
    servers: [DEPLOYED_SERVER],
    ...(input.security ? { security: [{ token: [] }] } : {}),
    tags: (Object.entries(input.tags) as [Tag, string][])
      .filter(([name]) => usedTags.has(name))
      .map(([name, description]) => ({ name, description })),
    paths,
    ...(input.webhooks ? { webhooks: input.webhooks } : {}),
    components: {
      ...(input.security
        ? {
            securitySchemes: {
              token: {
                type: 'http',
                scheme: 'bearer',
                description: 'API token: Authorization: Bearer <token>',
              },
            },
          }
        : {}),
      ...input.components,
    },
  };
}
