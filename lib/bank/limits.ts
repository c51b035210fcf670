// MFA abuse limits: every constant in this one place (documented in docs/bank.md, "Abuse limits").
// A limit counts events in windows of its length aligned to the epoch; a window may admit only
// what the previous one left unused (cap = max - previous window's count), so no span of one
// window length ever holds more than `max` events. A failed code is counted before the code is
// checked (and given back when it was right), so parallel guesses cannot outrun the count, and a
// right code is refused like any other while the limit is reached.
import { LimitReached } from '../domain/errors.ts';

export const MFA_LIMITS = {
  /** Verification starts per factor. */
  starts: { max: 5, windowSeconds: 600 },
  /** Failed codes per factor, across all its verifications. */
  codeFailures: { max: 10, windowSeconds: 3_600 },
  /** Failed mfa_token and recovery code checks per user. */
  tokenFailures: { max: 10, windowSeconds: 3_600 },
  /** Activation attempts (wrong codes or credentials) per pending factor. */
  activations: { max: 5, windowSeconds: 300 },
} as const;

export type LimitName = keyof typeof MFA_LIMITS;

/** One counted event of a limit: whose (user, factor or 'user'), which window. */
export interface LimitSlot {
  name: LimitName;
  userId: string;
  subject: string;
  window: number;
  max: number;
  ttl: number;
}

/** The stored state of a limit: the window it counts and what that window may admit. */
export interface LimitState {
  window: number;
  count: number;
  cap: number;
}

export function limitSlot(name: LimitName, userId: string, subject: string, now: number): LimitSlot {
  const { max, windowSeconds } = MFA_LIMITS[name];
  const window = Math.floor(now / windowSeconds);
  return { name, userId, subject, window, max, ttl: (window + 2) * windowSeconds };
}

/** The state a new window starts from, given the stored one (undefined: never counted). */
export function rolled(slot: LimitSlot, stored: LimitState | undefined): LimitState {
  const previous = stored && stored.window === slot.window - 1 ? stored.count : 0;
  return { window: slot.window, count: 0, cap: Math.max(0, slot.max - previous) };
}

/** Seconds until the limit admits again: the end of this window, or of the next when it starts full. */
export function retryAfter(slot: LimitSlot, state: LimitState, now: number): number {
  const { windowSeconds } = MFA_LIMITS[slot.name];
  const windows = state.count >= slot.max ? 2 : 1;
  return Math.max(1, (slot.window + windows) * windowSeconds - now);
}

const WHAT: Record<LimitName, string> = {
  starts: 'verification starts of this factor',
  codeFailures: 'failed codes of this factor',
  tokenFailures: 'failed mfa_token checks of this user',
  activations: 'failed activations of this factor',
};

/** The limit is reached: refused without looking at the proof (429 + Retry-After). */
export class MfaLimitReached extends LimitReached {
  constructor(
    readonly slot: LimitSlot,
    retryAfterSeconds: number,
  ) {
    const { max, windowSeconds } = MFA_LIMITS[slot.name];
    super(
      `Too many ${WHAT[slot.name]} (at most ${max} per ${windowSeconds / 60} minutes); retry after ${retryAfterSeconds} s`,
      retryAfterSeconds,
    );
  }
}
