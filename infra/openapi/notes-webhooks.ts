// The 18 webhook operations of the Notes document (HackMD API v1 Webhooks: personal under /v1,
// team under /v1/teams/{teamPath}), with examples; schemas from lib/notes/webhooks/schemas.ts and response-schemas.ts.
import type { ErrorType } from '../../lib/http/errors.ts';
import * as w from '../../lib/notes/webhooks/response-schemas.ts';
import * as ws from '../../lib/notes/webhooks/schemas.ts';
import { MAX_DELIVERY_PAGE_SIZE, PING_INTERVAL_SECONDS } from '../../lib/notes/webhooks/webhooks.ts';
import { inputSchema, schema, type WebhookItem } from './build.ts';

interface Helpers {
  ref(name: string): { $ref: string };
  errors(...types: ErrorType[]): Record<string, unknown>;
  pathParams(p: Parameters<typeof inputSchema>[0]): unknown[];
}

const at = 1767225600000;
const hookExample = {
  id: '6f1c2b9e-8a43-4e0f-9d5b-2f1e7c3a9b10',
  name: 'Deploy docs',
  url: 'https://hooks.example.com/hackmd',
  scope: { type: 'folder', folderId: '0c9d6a2e-5b1f-4f3a-8e7d-1a2b3c4d5e6f' },
  configuredStatus: 'active',
  configuredStatusReason: null,
  deliveryPolicyStatus: 'normal',
  deliveryPolicyReason: null,
  eventDeliveryMode: 'all_supported_events',
  createdAt: at,
  updatedAt: at,
};
const deliveryExample = {
  id: '00mjt5k1cQ2x7dV9kLp0aZ',
  eventType: 'note.updated',
  attemptKind: 'event',
  status: 'success',
  statusCategory: 'delivered',
  httpStatus: 200,
  errorCategory: null,
  errorMessage: null,
  latencyMs: 84,
  createdAt: at + 1000,
  deliveredAt: at + 1084,
};

export const webhookSchemas = () => ({
  ApiWebhook: schema(w.apiWebhook),
  ApiWebhookWithSecret: schema(w.createdWebhook),
  ApiWebhookDelivery: schema(w.apiWebhookDelivery),
  PaginatedWebhookDeliveries: schema(w.deliveryPage),
  CreateWebhookBody: inputSchema(ws.webhookCreation),
  UpdateWebhookBody: inputSchema(ws.webhookChanges),
  WebhookEvent: schema(w.webhookEvent),
});

/**
 * What this API sends to a webhook's URL (OpenAPI 3.1 `webhooks`): one signed POST per event.
 * The receiver answers 2xx; anything else, a timeout or a refused connection is retried.
 */
export function webhookEvents(h: Pick<Helpers, 'ref'>): Record<string, WebhookItem<'Webhooks'>> {
  return {
    noteEvent: {
      post: {
        operationId: 'ReceiveWebhookEvent',
        summary: 'An event delivered to a webhook URL',
        description:
          'Sent by this API to the webhook URL, not called on it: one POST per event (note.created, ' +
          'note.updated, note.deleted, note.restored, version.created, comment.created, comment.resolved, ' +
          'comment.reopened, ping), signed by the Standard Webhooks scheme ' +
          '(webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of ' +
          '"id.timestamp.body"> with the secret shown at creation). Retried with backoff until a 2xx. ' +
          'See docs/webhooks.md.',
        tags: ['Webhooks'],
        security: [],
        parameters: [
          {
            name: 'webhook-id',
            in: 'header',
            required: true,
            schema: { type: 'string' },
            description: 'The event id',
          },
          {
            name: 'webhook-timestamp',
            in: 'header',
            required: true,
            schema: { type: 'string' },
            description: 'Unix seconds when this attempt was signed',
          },
          {
            name: 'webhook-signature',
            in: 'header',
            required: true,
            schema: { type: 'string' },
            description: 'v1,<base64 HMAC-SHA256 of id.timestamp.body>',
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: h.ref('WebhookEvent') } } },
        responses: {
          '2XX': { description: 'Received: the delivery is recorded as succeeded' },
          '4XX': { description: 'Refused: the delivery is recorded as failed and retried' },
        },
      },
    },
  };
}

/** Every webhook route of one workspace kind. */
export function webhookRoutes(h: Helpers, team: boolean) {
  const prefix = team ? '/v1/teams/{teamPath}' : '/v1';
  const where = team
    ? "the team's workspace (its admin, the team's owner, only: other members 403, outsiders 404)"
    : "the caller's personal workspace";
  const scope = team ? h.pathParams(ws.teamPathOnlyForDocs) : [];
  const hook = h.pathParams(team ? ws.teamHookPath : ws.hookPath);
  const delivery = h.pathParams(team ? ws.teamDeliveryPath : ws.deliveryPath);
  const common: ErrorType[] = team ? ['bad_request', 'forbidden', 'not_found'] : ['bad_request', 'not_found'];
  const json = (ref: string, description: string, example: unknown) => ({
    description,
    content: { 'application/json': { schema: h.ref(ref), example } },
  });
  return {
    [`${prefix}/webhooks`]: {
      get: {
        description: `The webhooks of ${where}, oldest first.`,
        parameters: scope,
        responses: {
          200: {
            description: 'Webhooks',
            content: {
              'application/json': {
                schema: { type: 'array', items: h.ref('ApiWebhook') },
                example: [hookExample],
              },
            },
          },
          ...h.errors(...common),
        },
      },
      post: {
        description:
          `Create a webhook in ${where}. The signing secret (\`whsec_<base64>\`, Standard Webhooks) is ` +
          `returned only once and cannot be retrieved later. A folder scope must name a folder of the same ` +
          `workspace (its sub-folders are included) and cannot change. The url must be https (http only on the ` +
          `local runner), without credentials, at most 2048 characters. 429 when the workspace has reached its ` +
          `limit of webhooks (10 by default).`,
        parameters: scope,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: h.ref('CreateWebhookBody'),
              example: { name: 'Deploy docs', url: hookExample.url, scope: hookExample.scope },
            },
          },
        },
        responses: {
          201: json('ApiWebhookWithSecret', 'Created; the secret is shown this once', {
            ...hookExample,
            secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
          }),
          ...h.errors(...common, 'validation_failed', 'unsupported_media_type'),
        },
      },
    },
    [`${prefix}/webhooks/{hookId}`]: {
      get: {
        description: `One webhook of ${where}.`,
        parameters: hook,
        responses: { 200: json('ApiWebhook', 'The webhook', hookExample), ...h.errors(...common) },
      },
      patch: {
        description:
          'Change name, url or active (at least one; 422 otherwise). Scope and event selection cannot be ' +
          'changed. A new url is checked again at its next delivery.',
        parameters: hook,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: h.ref('UpdateWebhookBody'), example: { active: false } } },
        },
        responses: {
          200: json('ApiWebhook', 'The webhook after the change', {
            ...hookExample,
            configuredStatus: 'disabled',
          }),
          ...h.errors(...common, 'validation_failed', 'unsupported_media_type'),
        },
      },
      delete: {
        description: 'Delete the webhook; deliveries still queued for it are dropped.',
        parameters: hook,
        responses: { 204: { description: 'Deleted' }, ...h.errors(...common) },
      },
    },
    [`${prefix}/webhooks/{hookId}/ping`]: {
      post: {
        description:
          `Queue a \`ping\` event for this webhook (attemptKind "ping"); read its result from the deliveries. ` +
          `At most one ping per ${PING_INTERVAL_SECONDS} seconds per webhook (429 with Retry-After otherwise).`,
        parameters: hook,
        responses: { 204: { description: 'Queued' }, ...h.errors(...common) },
      },
    },
    [`${prefix}/webhooks/{hookId}/deliveries`]: {
      get: {
        description:
          'One page of the delivery log (every attempt in the retention window, 30 days by default), newest first.',
        parameters: [
          ...hook,
          {
            name: 'page',
            in: 'query',
            required: false,
            description: 'Page number, from 1',
            schema: { type: 'integer', minimum: 1, default: 1 },
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Deliveries per page',
            schema: { type: 'integer', minimum: 1, maximum: MAX_DELIVERY_PAGE_SIZE, default: 20 },
          },
        ],
        responses: {
          200: json('PaginatedWebhookDeliveries', 'A page of deliveries', {
            data: [deliveryExample],
            meta: { limit: 20, page: 1, total: 1, totalPages: 1 },
          }),
          ...h.errors(...common),
        },
      },
    },
    [`${prefix}/webhooks/{hookId}/deliveries/export`]: {
      get: {
        description:
          'Every delivery in the retention window, newest first, as newline-delimited JSON (one ApiWebhookDelivery per line).',
        parameters: hook,
        responses: {
          200: {
            description: 'NDJSON',
            content: {
              'application/x-ndjson': {
                schema: { type: 'string' },
                example: `${JSON.stringify(deliveryExample)}\n`,
              },
            },
          },
          ...h.errors(...common),
        },
      },
    },
    [`${prefix}/webhooks/{hookId}/deliveries/{deliveryId}`]: {
      get: {
        description: 'One attempt of the delivery log.',
        parameters: delivery,
        responses: {
          200: json('ApiWebhookDelivery', 'The delivery', deliveryExample),
          ...h.errors(...common),
        },
      },
    },
  };
}
