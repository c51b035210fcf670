// MFA abuse limits: every constant in this one place (documented in docs/bank.md, "Abuse limits").
// A limit counts events in windows of its length aligned to the epoch; a window may admit only
// what the previous one left unused (cap = max - previous window's count), so no span of one
// window length ever holds more than `max` events. A failed code is counted before the code is
// checked (and given back when it was right), so parallel guesses cannot outrun the count, and a
// right code is refused like any other while the limit is reached.
import { LimitReached, Unavailable } from '../domain/errors.ts';

export const MFA_LIMITS = {
  /** Verification starts per factor. */
  starts: { max: 5, windowSeconds: 600 },
  /** Failed codes per factor, across all its verifications. */
  codeFailures: { max: 10, windowSeconds: 3_600 },
  /** Failed mfa_token and recovery code checks per user. */
  tokenFailures: { max: 10, windowSeconds: 3_600 },
  /** Activation attempts (wrong codes or credentials) per pending factor. */
  activations: { max: 5, windowSeconds: 300 },
  /** Code-sending enrolments (sms, voice, email) per user and channel while the user has no active factor. */
  enrolmentSends: { max: 3, windowSeconds: 3_600 },
  /** The same once the user has an active factor (a counter of its own). */
  enrolmentSendsWithFactor: { max: 5, windowSeconds: 3_600 },
  /** Codes (enrolment and verification) to one destination, across all users; by its HMAC. */
  destinationSends: { max: 5, windowSeconds: 3_600 },
  /** Codes the whole stack sends per channel; `max` is the default of SMS_VOICE_HOURLY_LIMIT. */
  stackSends: { max: 1_000, windowSeconds: 3_600 },
  /** Refused requests of the routes without an API token, per source address (by its SHA-256). */
  sourceRefusals: { max: 30, windowSeconds: 60 },
} as const;

/** The limits of code sends: reaching one is a `code_send_limited` security event. */
export const SEND_LIMITS: readonly LimitName[] = [
  'enrolmentSends',
  'enrolmentSendsWithFactor',
  'destinationSends',
  'stackSends',
];

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

/** `max`: a configured figure in place of the constant (stackSends: SMS_VOICE_HOURLY_LIMIT). */
export function limitSlot(
  name: LimitName,
  userId: string,
  subject: string,
  now: number,
  max: number = MFA_LIMITS[name].max,
): LimitSlot {
  const { windowSeconds } = MFA_LIMITS[name];
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
  enrolmentSends: 'code-sending enrolments of this user',
  enrolmentSendsWithFactor: 'code-sending enrolments of this user',
  destinationSends: 'codes sent to this destination',
  stackSends: 'codes sent by this service',
  sourceRefusals: 'refused requests from this address',
};

const per = (slot: LimitSlot) => {
  const { windowSeconds } = MFA_LIMITS[slot.name];
  return `at most ${slot.max} per ${windowSeconds >= 3_600 ? `${windowSeconds / 3_600} hour` : `${windowSeconds / 60} minutes`}`;
};

/** The limit is reached: refused without looking at the proof (429 + Retry-After). */
export class MfaLimitReached extends LimitReached {
  constructor(
    readonly slot: LimitSlot,
    retryAfterSeconds: number,
  ) {
    super(
      `Too many ${WHAT[slot.name]} (${per(slot)}); retry after ${retryAfterSeconds} s`,
      retryAfterSeconds,
    );
  }
}

/** The stack's hourly sends are used up: no code is sent to anyone (503 + Retry-After, an alarm). */
export class SendCapacityReached extends Unavailable {
  constructor(
    readonly slot: LimitSlot,
    retryAfterSeconds: number,
  ) {
    super(
      `Codes cannot be sent now (${per(slot)} by this service); retry after ${retryAfterSeconds} s`,
      retryAfterSeconds,
    );
  }
}

/** The error of a reached limit: 503 for the stack's sends, 429 for every other. */
export const limitError = (
  slot: LimitSlot,
  retryAfterSeconds: number,
): MfaLimitReached | SendCapacityReached =>
  slot.name === 'stackSends'
    ? new SendCapacityReached(slot, retryAfterSeconds)
    : new MfaLimitReached(slot, retryAfterSeconds);

export const isLimitError = (err: unknown): err is MfaLimitReached | SendCapacityReached =>
  err instanceof MfaLimitReached || err instanceof SendCapacityReached;
