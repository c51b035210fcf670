// OpenAPI 3.1 documents are generated from the same valibot schemas that validate requests
// (@valibot/to-json-schema emits JSON Schema 2020-12, OpenAPI 3.1's dialect). Paths are the full
// paths of template.yaml (e.g. /v1/notes/{noteId}); the server is the stack's root URL.
import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
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
 * One operation as a document's builder declares it. Every member a reader needs is required, so
 * an operation without one fails `npm run typecheck` (and test/docs/openapi-documents.test.ts
 * checks the built documents): a unique `operationId` (HackMD's names for Notes), a one-line
 * `summary`, a `description` (what it does, its rules, what each error means), and one tag of the
 * document's `tags` (Swagger UI groups operations by it). `security: []` marks a public operation;
 * a document built with `security: false` gives it to every operation.
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
export type PathItem<Tag extends string> = Partial<Record<Method, Operation<Tag>>>;

export interface DocumentInput<Tag extends string> {
  title: string;
  version: string;
  description: string;
  /** Every tag an operation may carry, with its description; the document lists those in use. */
  tags: Record<Tag, string>;
  paths: Record<string, PathItem<NoInfer<Tag>>>;
  /** What the API sends (OpenAPI 3.1 `webhooks`), not what it answers. */
  webhooks?: Record<string, PathItem<NoInfer<Tag>>>;
  components?: Record<string, unknown>;
  /** true: every operation needs `Authorization: Bearer <token>` unless it says `security: []`. */
  security: boolean;
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
        Object.entries(item as Record<string, Operation<Tag>>).map(([method, op]) => [
          method,
          input.security || op.security ? op : { ...op, security: [] },
        ]),
      ),
    ]),
  );
  const used = new Set(
    [...Object.values(input.paths), ...Object.values(input.webhooks ?? {})].flatMap((item) =>
      Object.values(item as Record<string, Operation<Tag>>),
    ),
  );
  const usedTags = new Set([...used].map((op) => op.tags[0]));
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
