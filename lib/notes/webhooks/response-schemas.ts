// valibot schemas that only describe the webhook responses (HackMD's ApiWebhook, ApiWebhookDelivery,
// PaginatedResponse) and the event bodies POSTed to receivers; infra/openapi/notes.ts documents them
// and the tests check responses against that document. No function imports this module.
import * as v from 'valibot';
import { EVENT_TYPES } from './events/catalogue.ts';
import { note } from '../kernel/response-schemas.ts';
import { apiCommentHead, apiCommentListReply, noteVersionMetadata } from '../revisions/response-schemas.ts';
import { webhookScope } from './schemas.ts';

const described = <S extends v.GenericSchema>(s: S, description: string) =>
  v.pipe(s, v.description(description));

const webhookFields = {
  id: v.string(),
  name: v.string(),
  url: v.string(),
  scope: webhookScope,
  configuredStatus: v.picklist(['active', 'disabled']),
  configuredStatusReason: v.nullable(v.picklist(['scope_deleted'])),
  deliveryPolicyStatus: v.picklist(['normal', 'suppressed']),
  deliveryPolicyReason: v.nullable(
    v.picklist(['unsafe_destination', 'suspicious_pattern', 'policy_violation']),
  ),
  eventDeliveryMode: v.picklist(['all_supported_events']),
  createdAt: described(v.number(), 'epoch milliseconds'),
  updatedAt: described(v.number(), 'epoch milliseconds'),
};
export const apiWebhook = v.strictObject(webhookFields);
export const createdWebhook = v.strictObject({
  ...webhookFields,
  secret: described(v.string(), 'The signing secret, whsec_<base64>: shown this once, never again'),
});

export const apiWebhookDelivery = v.strictObject({
  id: v.string(),
  eventType: v.string(),
  attemptKind: v.picklist(['event', 'ping']),
  status: v.picklist(['success', 'failed', 'skipped']),
  statusCategory: v.picklist(['delivered', 'delivery_issue', 'not_delivered']),
  httpStatus: v.nullable(v.number()),
  errorCategory: v.nullable(v.string()),
  errorMessage: v.nullable(v.string()),
  latencyMs: v.nullable(v.number()),
  createdAt: described(v.number(), 'epoch milliseconds of the attempt'),
  deliveredAt: v.nullable(v.number()),
});

export const deliveryPage = v.strictObject({
  data: v.array(apiWebhookDelivery),
  meta: v.strictObject({ limit: v.number(), page: v.number(), total: v.number(), totalPages: v.number() }),
});

/** The body POSTed to a receiver. */
export const webhookEvent = v.strictObject({
  id: described(v.string(), 'The event id, also the webhook-id header (the same on every retry)'),
  type: v.picklist(EVENT_TYPES),
  createdAt: v.number(),
  workspace: v.strictObject({ type: v.picklist(['user', 'team']), path: v.string() }),
  data: v.strictObject({
    note: v.optional(note),
    changes: v.optional(v.array(v.string())),
    version: described(v.optional(noteVersionMetadata), 'version.created: the version (no content)'),
    comment: described(
      v.optional(
        v.union([v.omit(apiCommentHead, ['currentAnchor']), v.omit(apiCommentListReply, ['currentAnchor'])]),
      ),
      'comment.*: the comment as GET .../comments lists it, without currentAnchor (computed on read)',
    ),
  }),
});
