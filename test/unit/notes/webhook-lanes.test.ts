// The slow lane (lib/notes/webhooks/events/lanes.ts) around one delivery: an attempt that times out marks the
// webhook and sends its retry through the slow lane; the receiver's next answer (any status) clears
// the mark and its retry goes back to the delivery queue; nothing is written while the lane is right.
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../lib/domain/clock.ts';
import { sequentialIds } from '../../../lib/domain/ids.ts';
import {
  type DeliveryPorts,
  deliver,
  type PostOutcome,
} from '../../../lib/notes/webhooks/events/delivery.ts';
import { withLanes } from '../../../lib/notes/webhooks/events/lanes.ts';
import type { DeliveryJob } from '../../../lib/notes/webhooks/events/router.ts';
import type { WebhookRecord } from '../../../lib/notes/webhooks/webhooks.ts';
import { webhookRecord } from '../../support/note-record.ts';

const job: DeliveryJob = {
  hookId: 'h1',
  owner: { userId: 'u1' },
  eventId: 'e',
  eventType: 'note.created',
  attemptKind: 'event',
  body: '{}',
  attempt: 1,
};

/** One attempt of `j` to a webhook in the given state, whose receiver gives `outcome`. */
async function attempt(j: DeliveryJob, hook: WebhookRecord, outcome: PostOutcome) {
  const marks: (number | null)[] = [];
  const requeued: DeliveryJob[] = [];
  const ports: DeliveryPorts = {
    hook: async () => hook,
    openSecret: async () => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    checkDestination: async () => ({ ok: true, address: '93.184.216.34', family: 4 }),
    sign: () => 'v1,sig',
    post: async () => outcome,
    record: async () => {},
    setPolicy: async () => {},
    requeue: async (next) => {
      requeued.push(next);
    },
    deadLetter: async () => {},
    metric: () => {},
    clock: new FixedClock(5_000),
    ids: sequentialIds(),
    random: () => 0.5,
    settings: { retryDelays: () => [30, 60], attemptTimeoutMs: () => 1000, retentionDays: () => 30 },
  };
  const result = await deliver(
    j,
    withLanes(j, ports, async (_owner, _id, since) => {
      marks.push(since);
    }),
  );
  return { result, marks, requeued };
}

const timeout: PostOutcome = { error: 'timeout', message: 'No answer within 1000 ms' };

describe('delivery lanes', () => {
  it('a timed-out attempt marks the webhook; its retry takes the slow lane', async () => {
    const { result, marks, requeued } = await attempt(job, webhookRecord(), timeout);
    expect(result).toBe('retry');
    expect(marks).toEqual([5_000]);
    expect(requeued).toEqual([expect.objectContaining({ attempt: 2, lane: 'slow' })]);
  });

  it('a marked webhook that times out again is not written again; its retry stays in the slow lane', async () => {
    const slow = { ...webhookRecord(), slowSince: 1_000 };
    const { marks, requeued } = await attempt({ ...job, lane: 'slow' }, slow, timeout);
    expect(marks).toEqual([]);
    expect(requeued[0].lane).toBe('slow');
  });

  it("any answer clears the mark: a 500's retry goes back to the delivery queue", async () => {
    const slow = { ...webhookRecord(), slowSince: 1_000 };
    const { result, marks, requeued } = await attempt({ ...job, lane: 'slow' }, slow, { status: 500 });
    expect(result).toBe('retry');
    expect(marks).toEqual([null]);
    expect(requeued[0]).not.toHaveProperty('lane');
  });

  it('a connection refused at once is not hanging: no mark, no lane', async () => {
    const { marks, requeued } = await attempt(job, webhookRecord(), {
      error: 'connection',
      message: 'connect ECONNREFUSED',
    });
    expect(marks).toEqual([]);
    expect(requeued[0]).not.toHaveProperty('lane');
  });

  it('a job not due yet hops through its own lane, whatever the webhook', async () => {
    const { requeued } = await attempt({ ...job, lane: 'slow', dueAt: 5_000 + 600_000 }, webhookRecord(), {
      status: 204,
    });
    expect(requeued).toEqual([expect.objectContaining({ lane: 'slow', dueAt: 5_000 + 600_000 })]);
  });
});
