// zod schemas of the webhook routes' requests (HackMD API v1 Webhooks): paths, the deliveries
// query, the create and update bodies. Responses: webhook-response-schemas.ts. The URL's rules
// that depend on the deployment (https only, or http too locally) are checked by the domain.
import * as z from 'zod/mini';
import {
  DEFAULT_DELIVERY_PAGE_SIZE,
  MAX_DELIVERY_PAGE_SIZE,
  MAX_WEBHOOK_NAME,
  MAX_WEBHOOK_URL,
} from './webhooks.ts';

const teamPath = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'must be a team path'));
const hookId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a webhook id'));
const deliveryId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a delivery id'));

export const hookPath = z.object({ hookId });
export const teamHookPath = z.object({ teamPath, hookId });
export const deliveryPath = z.object({ hookId, deliveryId });
export const teamDeliveryPath = z.object({ teamPath, hookId, deliveryId });

export const deliveriesQuery = z.object({
  page: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(1_000_000))),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_DELIVERY_PAGE_SIZE))),
});
export const pageOf = (q: { page?: number; limit?: number }) => ({
  page: q.page ?? 1,
  limit: q.limit ?? DEFAULT_DELIVERY_PAGE_SIZE,
});

const url = z
  .string()
  .check(
    z.maxLength(MAX_WEBHOOK_URL),
    z.describe(
      `Where deliveries are POSTed: https (http locally), no credentials, at most ${MAX_WEBHOOK_URL} characters`,
    ),
  );
const name = z.nullable(z.string().check(z.maxLength(MAX_WEBHOOK_NAME)));
const folderId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a folder id'));

export const webhookScope = z.union([
  z.strictObject({ type: z.literal('workspace') }),
  z.strictObject({ type: z.literal('folder'), folderId }),
]);

export const webhookCreation = z.strictObject({
  scope: webhookScope,
  url,
  name: z.optional(name),
  active: z.optional(z.boolean()),
});

export const webhookChanges = z.strictObject({
  name: z.optional(name),
  url: z.optional(url),
  active: z.optional(z.boolean()),
});
/** The team path alone (the team webhook list and create routes). */
export const teamPathOnlyForDocs = z.object({ teamPath });
