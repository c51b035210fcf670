// Step-up: an approved, unused verification of the user from the last 5 minutes, named by the
// caller. The store consumes it in the same transaction as the guarded write.
import { StepUpRequired } from '../domain/errors.ts';
import { VERIFICATION_ID } from './ids.ts';
import { STEP_UP_WINDOW_SECONDS } from './model.ts';
import type { Completion, StepUp } from './ports.ts';

export const stepUpRequired = (why: string) =>
  new StepUpRequired(
    `${why}: send X-MFA-Verification with an approved, unused verification from the last 5 minutes`,
  );

export function stepUpFor(
  userId: string,
  verificationId: string | undefined,
  now: number,
  why: string,
): StepUp {
  if (!verificationId || !VERIFICATION_ID.test(verificationId)) throw stepUpRequired(why);
  return { userId, verificationId, approvedSince: now - STEP_UP_WINDOW_SECONDS, now };
}

/** Builds the completion of a reserved Idempotency-Key from the operation's result. */
export type Complete<T> = ((result: T) => Completion) | undefined;
