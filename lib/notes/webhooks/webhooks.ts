// Webhooks of a workspace (HackMD API v1: ApiWebhook, ApiWebhookScope, ApiWebhookDelivery). The
// domain: rules, the store port and the response shapes. Decisions (docs/webhooks.md):
// - personal webhooks belong to the caller's workspace; team webhooks are managed by the team's
//   owner (its admin): other members 403, outsiders and unknown teams 404;
// - at most `maxPerWorkspace` webhooks per workspace (429 beyond); a folder scope names a folder of
//   the same workspace (404 otherwise) and never changes;
// - the signing secret (`whsec_<base64>`) is returned once, at creation, and kept sealed;
// - a ping is a write on the webhook item (at most one per PING_INTERVAL_SECONDS, 429 otherwise):
//   the table's stream turns it into a delivery, like every other event.
import type { NoteOwnerKey } from '../../data/keys.ts';
import type { Clock } from '../../domain/clock.ts';
import { Forbidden, Invalid, LimitReached, NotFound } from '../../domain/errors.ts';
import type { Ids } from '../../domain/ids.ts';
import type { Team } from '../../identity/model.ts';

export const MAX_WEBHOOK_URL = 2048;
export const MAX_WEBHOOK_NAME = 255;
export const DEFAULT_DELIVERY_PAGE_SIZE = 20;
export const MAX_DELIVERY_PAGE_SIZE = 100;
export const PING_INTERVAL_SECONDS = 10;

export type WebhookScope = { type: 'workspace' } | { type: 'folder'; folderId: string };
export type DeliveryPolicyStatus = 'normal' | 'suppressed';
export type DeliveryPolicyReason = 'unsafe_destination' | null;

export interface WebhookRecord {
  id: string;
  owner: NoteOwnerKey;
  name: string;
  url: string;
  scope: WebhookScope;
  active: boolean;
  /** The signing secret, sealed (never stored in plaintext). */
  sealedSecret: string;
  deliveryPolicyStatus: DeliveryPolicyStatus;
  deliveryPolicyReason: DeliveryPolicyReason;
  createdAt: number;
  updatedAt: number;
  /** The last ping: its id (the stream turns a new id into a ping delivery) and time. */
  pingId?: string;
  lastPingAt?: number;
  /** Since when its receiver leaves attempts unanswered: its deliveries take the slow lane
   * (lib/notes/webhooks/events/lanes.ts); cleared by its next answer. */
  slowSince?: number;
}

export type AttemptKind = 'event' | 'ping';
export type DeliveryStatus = 'success' | 'failed' | 'skipped';
export type StatusCategory = 'delivered' | 'delivery_issue' | 'not_delivered';

/** One attempt to deliver one event to one webhook (the delivery log). */
export interface DeliveryRecord {
  id: string;
  hookId: string;
  eventId: string;
  eventType: string;
  attemptKind: AttemptKind;
  /** 1 for the first attempt of an event, 2 for its first retry, ... */
  attempt: number;
  status: DeliveryStatus;
  statusCategory: StatusCategory;
  httpStatus: number | null;
  latencyMs: number | null;
  errorCategory: string | null;
  errorMessage: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

export interface WebhookChanges {
  name?: string | null;
  url?: string;
  active?: boolean;
}

/** Storage port (adapters/dynamo-webhooks.ts, memory-webhooks.ts). */
export interface WebhookStore {
  /** The workspace's webhooks, oldest first (one Query). */
  list(owner: NoteOwnerKey): Promise<WebhookRecord[]>;
  get(owner: NoteOwnerKey, hookId: string): Promise<WebhookRecord | undefined>;
  /** Adds the webhook unless the workspace already has `max`; false when it has. */
  create(hook: WebhookRecord, max: number): Promise<boolean>;
  /** Sets the changes (and updatedAt); the record after, or undefined when the webhook is gone. */
  update(
    owner: NoteOwnerKey,
    hookId: string,
    changes: Partial<
      Pick<WebhookRecord, 'name' | 'url' | 'active' | 'deliveryPolicyStatus' | 'deliveryPolicyReason'>
    >,
    updatedAt: number,
  ): Promise<WebhookRecord | undefined>;
  /** False when there was no such webhook. */
  delete(owner: NoteOwnerKey, hookId: string): Promise<boolean>;
  /**
   * Records a ping unless the last one is more recent than `notBefore`: 'pinged', 'too-soon' (with
   * the last ping's time) or 'missing'.
   */
  ping(
    owner: NoteOwnerKey,
    hookId: string,
    pingId: string,
    at: number,
    notBefore: number,
  ): Promise<{ outcome: 'pinged' | 'missing' } | { outcome: 'too-soon'; lastPingAt: number }>;
  /** Every delivery of the webhook kept in the retention window, newest first. */
  deliveries(hookId: string, now: number): Promise<DeliveryRecord[]>;
  /**
   * `limit` deliveries of the retention window from the `skip`-th newest on, reading the log only as
   * far as that page; and how many the window holds (counted, not read).
   */
  deliveryPage(
    hookId: string,
    now: number,
    skip: number,
    limit: number,
  ): Promise<{ data: DeliveryRecord[]; total: number }>;
  delivery(hookId: string, deliveryId: string, now: number): Promise<DeliveryRecord | undefined>;
  /** Adds an attempt to the delivery log, kept until `expiresAt` (epoch ms). */
  recordDelivery(d: DeliveryRecord, expiresAt: number): Promise<void>;
}

/**
 * The workspace's webhook marks (docs/architecture.md, "Webhook events"): what lets the stream's
 * filter drop the writes of workspaces without webhooks before they reach the event router.
 */
export interface WebhookMarks {
  /** The workspace's webhooks now (strongly consistent). */
  count(owner: NoteOwnerKey): Promise<number>;
  /** Who writes the workspace's notes (the user; a team's members). */
  writers(owner: NoteOwnerKey): Promise<string[]>;
  /** Marks the workspace for its writers: their new notes are created `hooked`. */
  markWriters(owner: NoteOwnerKey, writers: string[]): Promise<void>;
  /** Stamps the workspace's existing notes (live and trashed) `hooked`; how many it stamped. */
  stampNotes(owner: NoteOwnerKey): Promise<number>;
  /** Removes the writers' marks unless the workspace has a webhook (again). */
  unmarkWriters(owner: NoteOwnerKey): Promise<void>;
}

export interface WebhookDirectory {
  getTeam(teamPath: string): Promise<Team | undefined>;
  isMember(teamPath: string, userId: string): Promise<boolean>;
}

export interface WebhookSettings {
  /** Webhooks per workspace (NOTES_WEBHOOK_LIMIT, 10). */
  maxPerWorkspace(): number;
  /** Whether `http:` URLs are accepted (locally; deployed only https). */
  allowHttp(): boolean;
}

export interface WebhookDeps {
  store: WebhookStore;
  directory: WebhookDirectory;
  /** Absent (in-memory domain tests): no marks, and no stream filter to satisfy. */
  marks?: WebhookMarks;
  /** Whether the folder exists in the workspace. */
  folderExists(owner: NoteOwnerKey, folderId: string): Promise<boolean>;
  /** Seals / opens a signing secret at rest. */
  seal(secret: string): Promise<string>;
  clock: Clock;
  ids: Ids;
  settings: WebhookSettings;
}

export interface NewWebhook {
  name?: string | null;
  url: string;
  scope: WebhookScope;
  active?: boolean;
}

/** Which workspace a call is about: the caller's own, or a team's (teamPath). */
export type Workspace = { userId: string; teamPath?: string };

/**
 * A URL a webhook may be created with, as stored: parsed by the WHATWG URL parser (what the delivery
 * connects to) and kept in its serialisation (`href`: the host lower-cased, IDNA-mapped (fullwidth
 * digits become ASCII ones) and in punycode, the path percent-encoded, a bare origin with its `/`),
 * so what is stored, shown and delivered to is one string. Refused rather than silently cleaned:
 * spaces at either end and control characters anywhere (the parser would strip or drop them, so
 * the URL stored would not be the one sent), schemes other than http(s), credentials, port 0 (no
 * service listens there), and more than MAX_WEBHOOK_URL characters as sent or as stored.
 */
export function parseWebhookUrl(url: string, allowHttp: boolean): { url: string } | { problem: string } {
  if (url.length > MAX_WEBHOOK_URL) return { problem: `must be at most ${MAX_WEBHOOK_URL} characters` };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
  if (/[\u0000-\u001f\u007f-\u009f]/.test(url)) return { problem: 'must not contain control characters' };
  if (url.trim() !== url) return { problem: 'must not begin or end with spaces' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'must be an absolute URL' };
  }
  if (parsed.protocol !== 'https:' && !(allowHttp && parsed.protocol === 'http:'))
    return { problem: allowHttp ? 'must be an http or https URL' : 'must be an https URL' };
  if (parsed.username || parsed.password) return { problem: 'must not carry credentials' };
  if (!parsed.hostname) return { problem: 'must name a host' };
  if (parsed.port === '0') return { problem: 'must not use port 0' };
  if (parsed.href.length > MAX_WEBHOOK_URL)
    return { problem: `must be at most ${MAX_WEBHOOK_URL} characters once normalised` };
  return { url: parsed.href };
}

export class WebhookService {
  constructor(private readonly deps: WebhookDeps) {}

  async list(ws: Workspace): Promise<WebhookRecord[]> {
    return this.deps.store.list(await this.manage(ws));
  }

  async get(ws: Workspace, hookId: string): Promise<WebhookRecord> {
    return this.found(await this.deps.store.get(await this.manage(ws), hookId));
  }

  /** The new webhook and its secret (shown this once). */
  async create(ws: Workspace, input: NewWebhook): Promise<{ hook: WebhookRecord; secret: string }> {
    const owner = await this.manage(ws);
    const url = this.checkUrl(input.url);
    if (input.scope.type === 'folder' && !(await this.deps.folderExists(owner, input.scope.folderId)))
      throw new NotFound(`Folder "${input.scope.folderId}" is not a folder of this workspace`);
    const secret = `whsec_${this.deps.ids.bytes(32).toString('base64')}`;
    const now = this.deps.clock.now();
    const hook: WebhookRecord = {
      id: this.deps.ids.uuid(),
      owner,
      name: input.name ?? '',
      url,
      scope: input.scope,
      active: input.active ?? true,
      sealedSecret: await this.deps.seal(secret),
      deliveryPolicyStatus: 'normal',
      deliveryPolicyReason: null,
      createdAt: now,
      updatedAt: now,
    };
    const max = this.deps.settings.maxPerWorkspace();
    // A first webhook marks the workspace's writers and stamps its notes before it commits, so every
    // write after the 201 produces its events; it marks again after, in case the last webhook's
    // delete unmarked the writers in between.
    const { marks } = this.deps;
    const first = marks !== undefined && (await marks.count(owner)) === 0;
    const writers = first ? await marks.writers(owner) : [];
    if (first) {
      await marks.markWriters(owner, writers);
      await marks.stampNotes(owner);
    }
    if (!(await this.deps.store.create(hook, max)))
      throw new LimitReached(`A workspace has at most ${max} webhooks; delete one first`, 0);
    if (first) await marks.markWriters(owner, writers);
    return { hook, secret };
  }

  async update(ws: Workspace, hookId: string, changes: WebhookChanges): Promise<WebhookRecord> {
    const owner = await this.manage(ws);
    if (changes.name === undefined && changes.url === undefined && changes.active === undefined)
      throw new Invalid('Give at least one of name, url or active', {
        fields: [{ field: 'body', message: 'needs at least one of name, url, active' }],
      });
    const url = changes.url === undefined ? undefined : this.checkUrl(changes.url);
    const set: Parameters<WebhookStore['update']>[2] = {};
    if (changes.name !== undefined) set.name = changes.name ?? '';
    if (changes.active !== undefined) set.active = changes.active;
    if (url !== undefined) {
      // A new destination is checked afresh at its next delivery.
      set.url = url;
      set.deliveryPolicyStatus = 'normal';
      set.deliveryPolicyReason = null;
    }
    return this.found(await this.deps.store.update(owner, hookId, set, this.deps.clock.now()));
  }

  async delete(ws: Workspace, hookId: string): Promise<void> {
    const owner = await this.manage(ws);
    if (!(await this.deps.store.delete(owner, hookId))) this.found(undefined);
    // The last one: new notes are created unmarked again (existing ones keep their stamps).
    const { marks } = this.deps;
    if (marks && (await marks.count(owner)) === 0) await marks.unmarkWriters(owner);
  }

  /** Asks for a test delivery (the table's stream delivers it); 429 within PING_INTERVAL_SECONDS. */
  async ping(ws: Workspace, hookId: string): Promise<void> {
    const owner = await this.manage(ws);
    const now = this.deps.clock.now();
    const result = await this.deps.store.ping(
      owner,
      hookId,
      this.deps.ids.uuid(),
      now,
      now - PING_INTERVAL_SECONDS * 1000,
    );
    if (result.outcome === 'missing') this.found(undefined);
    if (result.outcome === 'too-soon') {
      const wait = Math.max(1, Math.ceil((result.lastPingAt + PING_INTERVAL_SECONDS * 1000 - now) / 1000));
      throw new LimitReached(`At most one ping per ${PING_INTERVAL_SECONDS} seconds`, wait);
    }
  }

  /** One page of the webhook's delivery log, newest first, and the total. */
  async deliveries(
    ws: Workspace,
    hookId: string,
    page: number,
    limit: number,
  ): Promise<{ data: DeliveryRecord[]; total: number }> {
    await this.get(ws, hookId);
    return this.deps.store.deliveryPage(hookId, this.deps.clock.now(), (page - 1) * limit, limit);
  }

  /** Every delivery in the retention window (the NDJSON export), newest first. */
  async allDeliveries(ws: Workspace, hookId: string): Promise<DeliveryRecord[]> {
    await this.get(ws, hookId);
    return this.deps.store.deliveries(hookId, this.deps.clock.now());
  }

  async delivery(ws: Workspace, hookId: string, deliveryId: string): Promise<DeliveryRecord> {
    await this.get(ws, hookId);
    const d = await this.deps.store.delivery(hookId, deliveryId, this.deps.clock.now());
    if (!d) throw new NotFound(`No delivery "${deliveryId}" of this webhook`);
    return d;
  }

  /**
   * The workspace the caller manages: their own, or a team's when they own it (its admin). Other
   * members 403; outsiders and unknown teams 404 (the team trash's rule).
   */
  private async manage(ws: Workspace): Promise<NoteOwnerKey> {
    if (!ws.teamPath) return { userId: ws.userId };
    const team = await this.deps.directory.getTeam(ws.teamPath);
    if (!team) throw new NotFound(`Team "${ws.teamPath}" does not exist`);
    if (team.ownerId === ws.userId) return { teamPath: ws.teamPath };
    if (await this.deps.directory.isMember(ws.teamPath, ws.userId))
      throw new Forbidden("Only the team's admin may manage its webhooks");
    throw new NotFound(`Team "${ws.teamPath}" does not exist`);
  }

  /** The URL as stored (normalised); Invalid naming `url` when it may not be used. */
  private checkUrl(url: string): string {
    const parsed = parseWebhookUrl(url, this.deps.settings.allowHttp());
    if ('problem' in parsed)
      throw new Invalid(`url ${parsed.problem}`, { fields: [{ field: 'url', message: parsed.problem }] });
    return parsed.url;
  }

  private found<T>(v: T | undefined): T {
    if (v === undefined) throw new NotFound('No such webhook in this workspace');
    return v;
  }
}

/** HackMD's ApiWebhook. */
export const presentWebhook = (h: WebhookRecord) => ({
  id: h.id,
  name: h.name,
  url: h.url,
  scope: h.scope,
  configuredStatus: h.active ? ('active' as const) : ('disabled' as const),
  configuredStatusReason: null,
  deliveryPolicyStatus: h.deliveryPolicyStatus,
  deliveryPolicyReason: h.deliveryPolicyReason,
  eventDeliveryMode: 'all_supported_events' as const,
  createdAt: h.createdAt,
  updatedAt: h.updatedAt,
});

/** HackMD's ApiWebhookDelivery. */
export const presentDelivery = (d: DeliveryRecord) => ({
  id: d.id,
  eventType: d.eventType,
  attemptKind: d.attemptKind,
  status: d.status,
  statusCategory: d.statusCategory,
  httpStatus: d.httpStatus,
  errorCategory: d.errorCategory,
  errorMessage: d.errorMessage,
  latencyMs: d.latencyMs,
  createdAt: d.createdAt,
  deliveredAt: d.deliveredAt,
});

/** HackMD's PaginatedResponse of deliveries. */
export const presentDeliveryPage = (
  page: { data: DeliveryRecord[]; total: number },
  meta: { page: number; limit: number },
) => ({
  data: page.data.map(presentDelivery),
  meta: { ...meta, total: page.total, totalPages: Math.ceil(page.total / meta.limit) },
});

/** Delivery ids sort by creation time (base36 epoch ms), then random characters. */
export const deliveryIdOf = (createdAt: number, random: Buffer): string =>
  `${createdAt.toString(36).padStart(9, '0')}${random.toString('base64url')}`;
