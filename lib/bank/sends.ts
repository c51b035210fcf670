// The send limits of sms, voice and e-mail codes (SMS and voice pumping; docs/bank.md, "Abuse
// limits"): per user (code-sending enrolments), per destination across all users (its HMAC, never
// the address) and per stack, e-mail counted apart from sms and voice. Each is counted before the
// code is stored and sent, and given back when the write that would send it fails. Knows nothing
// of HTTP.
import { destinationHash } from './crypto.ts';
import { limitSlot, type LimitSlot } from './limits.ts';
import type { FactorKind } from './model.ts';

/** The channel a code goes through: sms and voice share one, e-mail is counted apart. */
export type Channel = 'sms_voice' | 'email';

export const channelOf = (kind: FactorKind): Channel | undefined =>
  kind === 'sms' || kind === 'voice' ? 'sms_voice' : kind === 'email' ? 'email' : undefined;

/** The counter partitions of limits that belong to no user. */
export const DESTINATION = (hash: string) => `DEST#${hash}`;
export const STACK = 'SENDS#STACK';

/**
 * The counts one code send takes, in this order: at enrolment the user's (3 an hour without an
 * active factor, 5 with one), then the destination's, then the stack's (`stackMax` an hour).
 */
export function sendSlots(opts: {
  key: string;
  address: string;
  channel: Channel;
  now: number;
  stackMax: number;
  enrolment?: { userId: string; hasActiveFactor: boolean };
}): LimitSlot[] {
  const { key, address, channel, now, enrolment } = opts;
  return [
    ...(enrolment
      ? [
          limitSlot(
            enrolment.hasActiveFactor ? 'enrolmentSendsWithFactor' : 'enrolmentSends',
            enrolment.userId,
            channel,
            now,
          ),
        ]
      : []),
    limitSlot('destinationSends', DESTINATION(destinationHash(key, address)), channel, now),
    limitSlot('stackSends', STACK, channel, now, opts.stackMax),
  ];
}

interface Counters {
  takeLimitSlot(slot: LimitSlot, now: number): Promise<number>;
  releaseLimitSlot(slot: LimitSlot): Promise<void>;
}

/** Counts every slot, in order; a refused one gives back those taken before it, and is thrown. */
export async function takeSends(store: Counters, slots: LimitSlot[], now: number): Promise<void> {
  const taken: LimitSlot[] = [];
  try {
    for (const slot of slots) {
      await store.takeLimitSlot(slot, now);
      taken.push(slot);
    }
  } catch (err) {
    await releaseSends(store, taken);
    throw err;
  }
}

/** Gives the counts back (the write that would have sent the code failed). */
export const releaseSends = async (store: Counters, slots: LimitSlot[]): Promise<void> => {
  await Promise.all(slots.map((s) => store.releaseLimitSlot(s)));
};
