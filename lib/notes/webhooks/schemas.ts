// valibot schemas of the webhook routes' requests (HackMD API v1 Webhooks): paths, the deliveries
// query, the create and update bodies. Responses: response-schemas.ts beside it. The URL's rules
// that depend on the deployment (https only, or http too locally) are checked by the domain.
import * as v from 'valibot';
import { object } from '../../domain/schema.ts';
import { queryInt } from '../../domain/schema-numbers.ts';
import {
  DEFAULT_DELIVERY_PAGE_SIZE,
  MAX_DELIVERY_PAGE_SIZE,
  MAX_WEBHOOK_NAME,
  MAX_WEBHOOK_URL,
} from './webhooks.ts';

const teamPath = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be a team path'));
const hookId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a webhook id'));
const deliveryId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a delivery id'));

export const hookPath = object({ hookId });
export const teamHookPath = object({ teamPath, hookId });
export const deliveryPath = object({ hookId, deliveryId });
export const teamDeliveryPath = object({ teamPath, hookId, deliveryId });

export const deliveriesQuery = object({
  page: v.optional(queryInt(1, 1_000_000)),
  limit: v.optional(queryInt(1, MAX_DELIVERY_PAGE_SIZE)),
});
export const pageOf = (q: { page?: number; limit?: number }) => ({
  page: q.page ?? 1,
  limit: q.limit ?? DEFAULT_DELIVERY_PAGE_SIZE,
});

const url = v.pipe(
  v.string(),
  v.maxLength(MAX_WEBHOOK_URL),
  v.description(
    `Where deliveries are POSTed: https (http locally), no credentials, not port 0, no control ` +
      `characters or spaces at either end, at most ${MAX_WEBHOOK_URL} characters; stored as the WHATWG ` +
      `URL parser serialises it (host lower-cased and IDNA-mapped, path percent-encoded)`,
  ),
);
const name = v.nullable(v.pipe(v.string(), v.maxLength(MAX_WEBHOOK_NAME)));
const folderId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a folder id'));

export const webhookScope = v.union(
  [object({ type: v.literal('workspace') }), object({ type: v.literal('folder'), folderId })],
  'Invalid input',
);

export const webhookCreation = object({
  scope: webhookScope,
  url,
  name: v.optional(name),
  active: v.optional(v.boolean()),
});

export const webhookChanges = object({
  // Known, so not ignored as unknown fields are: a webhook's scope is fixed at its creation.
  scope: v.optional(v.never("a webhook's scope cannot change; create another webhook")),
  name: v.optional(name),
  url: v.optional(url),
  active: v.optional(v.boolean()),
});
/** The team path alone (the team webhook list and create routes). */
export const teamPathOnlyForDocs = object({ teamPath });
