// The contract of the webhook store: the in-memory and DynamoDB adapters pass this same suite.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NoteOwnerKey } from '../../lib/data/keys.ts';
import type { DeliveryRecord, WebhookRecord, WebhookStore } from '../../lib/notes/webhooks/webhooks.ts';

const hook = (owner: NoteOwnerKey, over: Partial<WebhookRecord> = {}): WebhookRecord => ({
  id: randomUUID(),
  owner,
  name: 'h',
  url: 'https://example.com/hook',
  scope: { type: 'workspace' },
  active: true,
  sealedSecret: 'sealed',
  deliveryPolicyStatus: 'normal',
  deliveryPolicyReason: null,
  createdAt: 1000,
  updatedAt: 1000,
  ...over,
});
const delivery = (hookId: string, id: string, createdAt: number): DeliveryRecord => ({
  id,
  hookId,
  eventId: `evt_${id}`,
  eventType: 'note.created',
  attemptKind: 'event',
  attempt: 1,
  status: 'success',
  statusCategory: 'delivered',
  httpStatus: 200,
  latencyMs: 12,
  errorCategory: null,
  errorMessage: null,
  createdAt,
  deliveredAt: createdAt + 12,
});

export function webhooksContract(name: string, store: () => WebhookStore): void {
  describe(`${name}: webhooks`, () => {
    it('creates, reads back, lists oldest first, and keeps workspaces apart', async () => {
      const s = store();
      const me = { userId: randomUUID() };
      const team = { teamPath: `t-${randomUUID()}` };
      const a = hook(me, { createdAt: 2000 });
      const b = hook(me, { createdAt: 1000, scope: { type: 'folder', folderId: 'f1' } });
      const t = hook(team);
      for (const h of [a, b, t]) expect(await s.create(h, 10)).toBe(true);
      expect(await s.get(me, a.id)).toEqual(a);
      expect(await s.list(me)).toEqual([b, a]);
      expect(await s.list(team)).toEqual([t]);
      expect(await s.get(team, a.id)).toBeUndefined();
    });

    it('refuses a create beyond the limit, and counts a delete', async () => {
      const s = store();
      const me = { userId: randomUUID() };
      const first = hook(me);
      expect(await s.create(first, 2)).toBe(true);
      expect(await s.create(hook(me), 2)).toBe(true);
      expect(await s.create(hook(me), 2)).toBe(false);
      expect(await s.list(me)).toHaveLength(2);
      expect(await s.delete(me, first.id)).toBe(true);
      expect(await s.delete(me, first.id)).toBe(false);
      expect(await s.create(hook(me), 2)).toBe(true);
    });

    it('updates the fields given and updatedAt; undefined when gone', async () => {
      const s = store();
      const me = { userId: randomUUID() };
      const h = hook(me);
      await s.create(h, 10);
      const after = await s.update(me, h.id, { active: false, name: 'n' }, 5000);
      expect(after).toEqual({ ...h, active: false, name: 'n', updatedAt: 5000 });
      expect(await s.get(me, h.id)).toEqual(after);
      expect(await s.update(me, randomUUID(), { active: false }, 5000)).toBeUndefined();
    });

    it('records a ping at most once per interval; missing for an unknown webhook', async () => {
      const s = store();
      const me = { userId: randomUUID() };
      const h = hook(me);
      await s.create(h, 10);
      expect(await s.ping(me, h.id, 'p1', 10_000, 0)).toEqual({ outcome: 'pinged' });
      expect(await s.ping(me, h.id, 'p2', 12_000, 2_000)).toEqual({
        outcome: 'too-soon',
        lastPingAt: 10_000,
      });
      expect(await s.ping(me, h.id, 'p3', 20_000, 10_000)).toEqual({ outcome: 'pinged' });
      expect((await s.get(me, h.id))?.pingId).toBe('p3');
      expect(await s.ping(me, randomUUID(), 'p4', 30_000, 0)).toEqual({ outcome: 'missing' });
    });

    it('keeps deliveries newest first until they expire', async () => {
      const s = store();
      const hookId = randomUUID();
      const now = Date.now();
      const older = delivery(hookId, `${(now - 2000).toString(36)}aaaa`, now - 2000);
      const newer = delivery(hookId, `${(now - 1000).toString(36)}bbbb`, now - 1000);
      const expired = delivery(hookId, `${(now - 3000).toString(36)}cccc`, now - 3000);
      await s.recordDelivery(older, now + 60_000);
      await s.recordDelivery(newer, now + 60_000);
      await s.recordDelivery(expired, now - 5_000);
      expect(await s.deliveries(hookId, now)).toEqual([newer, older]);
      expect(await s.delivery(hookId, older.id, now)).toEqual(older);
      expect(await s.delivery(hookId, expired.id, now)).toBeUndefined();
      expect(await s.deliveries(randomUUID(), now)).toEqual([]);
    });

    it('reads one page of the delivery log, newest first, with the count of the whole window', async () => {
      const s = store();
      const hookId = randomUUID();
      const now = Date.now();
      const kept = Array.from({ length: 7 }, (_, i) =>
        delivery(hookId, `${(now - 10_000 + i).toString(36)}k${i}`, now - 10_000 + i),
      );
      for (const d of kept) await s.recordDelivery(d, now + 60_000);
      await s.recordDelivery(delivery(hookId, `${(now - 20_000).toString(36)}old`, now - 20_000), now - 1);
      const newest = [...kept].reverse();
      expect(await s.deliveryPage(hookId, now, 0, 3)).toEqual({ data: newest.slice(0, 3), total: 7 });
      expect(await s.deliveryPage(hookId, now, 3, 3)).toEqual({ data: newest.slice(3, 6), total: 7 });
      expect(await s.deliveryPage(hookId, now, 6, 3)).toEqual({ data: newest.slice(6), total: 7 });
      expect(await s.deliveryPage(hookId, now, 9, 3)).toEqual({ data: [], total: 7 });
      expect(await s.deliveryPage(randomUUID(), now, 0, 3)).toEqual({ data: [], total: 0 });
    });
  });
}
