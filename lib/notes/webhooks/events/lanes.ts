// Delivery lanes: one receiver that leaves attempts unanswered must not hold up everyone else's
// deliveries. A webhook whose attempt timed out is marked (`slowSince` on its item) and its jobs
// then go through their own queue, the slow lane, polled by its own event source mapping with its
// own concurrency: new events (the router reads the mark) and retries alike. The delivery queue's
// pollers are then never tied up by a known-hanging receiver for more than the attempts already on
// their way when it started hanging. The receiver's next answer within the deadline (any status)
// clears the mark and its jobs return to the delivery queue. Decisions: docs/webhooks.md, "Isolation".
//
// This decorates the delivery ports of one job (delivery.ts is unchanged): it sees the webhook as
// read, the attempt's outcome, and sets the lane of the job put back on the queue.
import type { NoteOwnerKey } from '../../../data/keys.ts';
import type { DeliveryPorts } from './delivery.ts';
import type { DeliveryJob } from './router.ts';

export type SetSlowLane = (owner: NoteOwnerKey, hookId: string, since: number | null) => Promise<void>;

export function withLanes(job: DeliveryJob, ports: DeliveryPorts, setSlowLane: SetSlowLane): DeliveryPorts {
  let slow = job.lane === 'slow';
  let hook: { owner: NoteOwnerKey; id: string; slowSince?: number } | undefined;
  return {
    ...ports,
    hook: async (owner, hookId) => {
      const found = await ports.hook(owner, hookId);
      hook = found;
      if (found) slow = found.slowSince !== undefined;
      return found;
    },
    post: async (request) => {
      const outcome = await ports.post(request);
      const timedOut = 'error' in outcome && outcome.error === 'timeout';
      if (hook && timedOut !== slow) {
        await setSlowLane(hook.owner, hook.id, timedOut ? ports.clock.now() : null);
        slow = timedOut;
      }
      return outcome;
    },
    requeue: (next, delaySeconds) => {
      const { lane: _, ...rest } = next;
      return ports.requeue(slow ? { ...rest, lane: 'slow' } : rest, delaySeconds);
    },
  };
}
