// The webhooks feature's wiring (the HTTP operations'; the event pipeline's is events/wiring.ts).
import { seal } from '../../domain/seal.ts';
import { config } from '../../config.ts';
import { mfaEncryptionKey } from '../../data/secrets.ts';
import { systemClock } from '../../domain/clock.ts';
import { systemIds } from '../../domain/ids.ts';
import { once } from '../../domain/once.ts';
import { only } from '../../domain/only.ts';
import { teamAccess } from '../../identity/wiring.ts';
import { getFolder } from '../folders/adapters/dynamo-folders.ts';
import { personal } from '../kernel/wiring.ts';
import {
  markWriters,
  stampNotes,
  unmarkWriters,
  webhookCount,
  writersOf,
} from './adapters/dynamo-hook-marks.ts';
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  getWebhook,
  deliveryPage,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  updateWebhook,
} from './adapters/dynamo-webhooks.ts';
import {
  type WebhookDeps,
  type WebhookDirectory,
  type WebhookMarks,
  WebhookService,
  type WebhookStore,
} from './webhooks.ts';

/**
 * Webhooks (lib/notes/webhooks/webhooks.ts), wired per operation (docs/architecture.md, "Bundles"): each
 * getter names the webhook store methods its operation reaches (lib/domain/only.ts), and a personal
 * operation reads no team (a team's, the team and the caller's membership: `teamAccess`). Only a
 * create checks a folder scope against the workspace's folders and seals a signing secret (with the
 * key that seals the MFA secrets, AES-256-GCM), so only the create functions read that key (and
 * bundle Secrets Manager) and the folder store.
 */
const webhookService = (
  store: Partial<WebhookStore>,
  teams: WebhookDirectory,
  create?: Pick<WebhookDeps, 'folderExists' | 'seal'>,
  marks?: Partial<WebhookMarks>,
) =>
  new WebhookService({
    store: only<WebhookStore>('webhooks', store),
    directory: teams,
    marks: marks && only<WebhookMarks>('marks', marks),
    folderExists: create?.folderExists ?? (() => Promise.reject(new Error('this function checks no folder'))),
    seal: create?.seal ?? (() => Promise.reject(new Error('this function seals no webhook secret'))),
    clock: systemClock,
    ids: systemIds,
    settings: {
      maxPerWorkspace: () => config.webhookLimit,
      allowHttp: () => config.webhookAllowHttp,
    },
  });

/**
 * The webhook marks (lib/notes/webhooks/adapters/dynamo-hook-marks.ts): a workspace's first webhook marks its
 * writers and stamps its notes before it commits; its last webhook's delete unmarks the writers.
 */
const firstHookMarks: Partial<WebhookMarks> = {
  count: webhookCount,
  writers: writersOf,
  markWriters,
  stampNotes,
};
const lastHookMarks: Partial<WebhookMarks> = { count: webhookCount, unmarkWriters };

/** What a create needs besides the store: the folder scope's check and the secret's sealing. */
const creating = (): Pick<WebhookDeps, 'folderExists' | 'seal'> => ({
  folderExists: async (owner, folderId) => (await getFolder(owner, folderId)) !== undefined,
  seal: async (secret) => seal(secret, await mfaEncryptionKey()),
});

/** ListWebhooks, ListTeamWebhooks: one Query of the workspace's webhooks. */
export const webhookLister = /* @__PURE__ */ once(() => webhookService({ list: listWebhooks }, personal));
export const teamWebhookLister = /* @__PURE__ */ once(() =>
  webhookService({ list: listWebhooks }, teamAccess()),
);
/** CreateWebhook, CreateTeamWebhook: the limit and the webhook in one transaction. */
export const webhookCreator = /* @__PURE__ */ once(() =>
  webhookService({ create: createWebhook }, personal, creating(), firstHookMarks),
);
export const teamWebhookCreator = /* @__PURE__ */ once(() =>
  webhookService({ create: createWebhook }, teamAccess(), creating(), firstHookMarks),
);
/** GetWebhook, GetTeamWebhook: one GetItem. */
export const webhookLookup = /* @__PURE__ */ once(() => webhookService({ get: getWebhook }, personal));
export const teamWebhookLookup = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook }, teamAccess()),
);
/** UpdateWebhook, UpdateTeamWebhook: one conditional UpdateItem. */
export const webhookUpdater = /* @__PURE__ */ once(() => webhookService({ update: updateWebhook }, personal));
export const teamWebhookUpdater = /* @__PURE__ */ once(() =>
  webhookService({ update: updateWebhook }, teamAccess()),
);
/** DeleteWebhook, DeleteTeamWebhook: the webhook and the count in one transaction. */
export const webhookRemover = /* @__PURE__ */ once(() =>
  webhookService({ delete: deleteWebhook }, personal, undefined, lastHookMarks),
);
export const teamWebhookRemover = /* @__PURE__ */ once(() =>
  webhookService({ delete: deleteWebhook }, teamAccess(), undefined, lastHookMarks),
);
/** PingWebhook, PingTeamWebhook: one conditional UpdateItem (the ping and its own rate limit). */
export const webhookPinger = /* @__PURE__ */ once(() => webhookService({ ping: pingWebhook }, personal));
export const teamWebhookPinger = /* @__PURE__ */ once(() =>
  webhookService({ ping: pingWebhook }, teamAccess()),
);
/**
 * List and export the delivery log (personal, team): the webhook's GetItem, then the page's Query
 * (and a counting Query), or the whole log's Query for the export.
 */
export const webhookDeliveryLog = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, deliveries: listDeliveries, deliveryPage }, personal),
);
export const teamWebhookDeliveryLog = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, deliveries: listDeliveries, deliveryPage }, teamAccess()),
);
/** GetWebhookDelivery, GetTeamWebhookDelivery: the webhook's GetItem, the attempt's GetItem. */
export const webhookDeliveryLookup = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, delivery: getDelivery }, personal),
);
export const teamWebhookDeliveryLookup = /* @__PURE__ */ once(() =>
  webhookService({ get: getWebhook, delivery: getDelivery }, teamAccess()),
);
