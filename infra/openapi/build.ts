// OpenAPI 3.1 documents are generated from the same zod schemas that validate requests
// (z.toJSONSchema emits JSON Schema 2020-12, OpenAPI 3.1's dialect). Paths are the full paths of
// template.yaml (e.g. /v1/notes/{noteId}); the server is the stack's root URL.
import * as z from 'zod/mini';

export const schema = (s: z.ZodMiniType): Record<string, unknown> => {
  const out = z.toJSONSchema(s, { target: 'draft-2020-12', unrepresentable: 'any', io: 'output' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
};
export const inputSchema = (s: z.ZodMiniType): Record<string, unknown> => {
  const out = z.toJSONSchema(s, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
};

export const json = (s: z.ZodMiniType | Record<string, unknown>, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: s instanceof z.ZodMiniType ? schema(s) : s } },
});

export interface DocumentInput {
  title: string;
  version: string;
  description: string;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  security?: boolean;
}

export function document(input: DocumentInput) {
  return {
    openapi: '3.1.0',
    info: { title: input.title, version: input.version, description: input.description },
    servers: [
      { url: 'http://localhost:3000', description: 'npm start' },
      {
        url: 'https://{api}.execute-api.{region}.amazonaws.com/{stage}',
        variables: {
          api: { default: 'api-id' },
          region: { default: 'us-east-1' },
          stage: { default: 'live' },
        },
      },
    ],
    ...(input.security ? { security: [{ token: [] }] } : {}),
    paths: input.paths,
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
