// zod schemas that only describe the webhook responses (HackMD's ApiWebhook, ApiWebhookDelivery,
// PaginatedResponse) and the event bodies POSTed to receivers; infra/openapi/notes.ts documents them
// and the tests check responses against that document. No function imports this module.
import * as z from 'zod/mini';
import { EVENT_TYPES } from './events/catalogue.ts';
import { note } from './response-schemas.ts';
import { apiCommentHead, apiCommentListReply, noteVersionMetadata } from './revision-response-schemas.ts';
import { webhookScope } from './webhook-schemas.ts';

export const apiWebhook = z.strictObject({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  scope: webhookScope,
  configuredStatus: z.enum(['active', 'disabled']),
  configuredStatusReason: z.nullable(z.enum(['scope_deleted'])),
  deliveryPolicyStatus: z.enum(['normal', 'suppressed']),
  deliveryPolicyReason: z.nullable(z.enum(['unsafe_destination', 'suspicious_pattern', 'policy_violation'])),
  eventDeliveryMode: z.enum(['all_supported_events']),
  createdAt: z.number().check(z.describe('epoch milliseconds')),
  updatedAt: z.number().check(z.describe('epoch milliseconds')),
});
export const createdWebhook = z.extend(apiWebhook, {
  secret: z.string().check(z.describe('The signing secret, whsec_<base64>: shown this once, never again')),
});

export const apiWebhookDelivery = z.strictObject({
  id: z.string(),
  eventType: z.string(),
  attemptKind: z.enum(['event', 'ping']),
  status: z.enum(['success', 'failed', 'skipped']),
  statusCategory: z.enum(['delivered', 'delivery_issue', 'not_delivered']),
  httpStatus: z.nullable(z.number()),
  errorCategory: z.nullable(z.string()),
  errorMessage: z.nullable(z.string()),
  latencyMs: z.nullable(z.number()),
  createdAt: z.number().check(z.describe('epoch milliseconds of the attempt')),
  deliveredAt: z.nullable(z.number()),
});

export const deliveryPage = z.strictObject({
  data: z.array(apiWebhookDelivery),
  meta: z.strictObject({ limit: z.number(), page: z.number(), total: z.number(), totalPages: z.number() }),
});

/** The body POSTed to a receiver. */
export const webhookEvent = z.strictObject({
  id: z.string().check(z.describe('The event id, also the webhook-id header (the same on every retry)')),
  type: z.enum(EVENT_TYPES),
  createdAt: z.number(),
  workspace: z.strictObject({ type: z.enum(['user', 'team']), path: z.string() }),
  data: z.object({
    note: z.optional(note),
    changes: z.optional(z.array(z.string())),
    version: z.optional(noteVersionMetadata).check(z.describe('version.created: the version (no content)')),
    comment: z
      .optional(
        z.union([
          z.omit(apiCommentHead, { currentAnchor: true }),
          z.omit(apiCommentListReply, { currentAnchor: true }),
        ]),
      )
      .check(
        z.describe(
          'comment.*: the comment as GET .../comments lists it, without currentAnchor (computed on read)',
        ),
      ),
  }),
});
