// In-memory webhook store for domain unit tests: the same contract as dynamo-webhooks.ts.
import type { NoteOwnerKey } from '../../../data/keys.ts';
import type { DeliveryRecord, WebhookRecord, WebhookStore } from '../webhooks.ts';

const keyOf = (owner: NoteOwnerKey) =>
  'userId' in owner ? `user:${owner.userId}` : `team:${owner.teamPath}`;
const copy = <T>(v: T): T => structuredClone(v);

export function memoryWebhooks(): WebhookStore {
  const hooks = new Map<string, Map<string, WebhookRecord>>();
  const deliveries = new Map<string, { d: DeliveryRecord; expiresAt: number }[]>();
  const ws = (owner: NoteOwnerKey) => {
    const key = keyOf(owner);
    if (!hooks.has(key)) hooks.set(key, new Map());
    return hooks.get(key)!;
  };
  const kept = (hookId: string, now: number) =>
    (deliveries.get(hookId) ?? []).filter((e) => e.expiresAt > now).map((e) => copy(e.d));
  return {
    async list(owner) {
      return [...ws(owner).values()]
        .map(copy)
        .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    },
    async get(owner, hookId) {
      return copy(ws(owner).get(hookId));
    },
    async create(hook, max) {
      const w = ws(hook.owner);
      if (w.size >= max || w.has(hook.id)) return false;
      w.set(hook.id, copy(hook));
      return true;
    },
    async update(owner, hookId, changes, updatedAt) {
      const h = ws(owner).get(hookId);
      if (!h) return undefined;
      Object.assign(h, copy(changes), { updatedAt });
      return copy(h);
    },
    async delete(owner, hookId) {
      return ws(owner).delete(hookId);
    },
    async ping(owner, hookId, pingId, at, notBefore) {
      const h = ws(owner).get(hookId);
      if (!h) return { outcome: 'missing' };
      if (h.lastPingAt !== undefined && h.lastPingAt > notBefore)
        return { outcome: 'too-soon', lastPingAt: h.lastPingAt };
      Object.assign(h, { pingId, lastPingAt: at });
      return { outcome: 'pinged' };
    },
    async deliveries(hookId, now) {
      return kept(hookId, now).sort((a, b) => b.id.localeCompare(a.id));
    },
    async deliveryPage(hookId, now, skip, limit) {
      const all = kept(hookId, now).sort((a, b) => b.id.localeCompare(a.id));
      return { data: all.slice(skip, skip + limit), total: all.length };
    },
    async delivery(hookId, deliveryId, now) {
      return kept(hookId, now).find((d) => d.id === deliveryId);
    },
    async recordDelivery(d, expiresAt) {
      const list = deliveries.get(d.hookId) ?? [];
      list.push({ d: copy(d), expiresAt });
      deliveries.set(d.hookId, list);
    },
  };
}
