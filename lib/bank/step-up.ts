// Step-up: an X-MFA-Verification header naming an approved, unused verification of the user from
// the last 5 minutes. The store consumes it in the same transaction as the guarded write.
import { ApiError } from '../http/errors.ts';
import { VERIFICATION_ID } from './ids.ts';
import { STEP_UP_WINDOW_SECONDS } from './model.ts';
import type { StepUp } from './store.ts';

export const stepUpRequired = (why: string) => new ApiError('step_up_required', `${why}: send X-MFA-Verification with an approved, unused verification from the last 5 minutes`);

export function stepUpFor(userId: string, verificationId: string | undefined, now: number, why: string): StepUp {
  if (!verificationId || !VERIFICATION_ID.test(verificationId)) throw stepUpRequired(why);
  return { userId, verificationId, approvedSince: now - STEP_UP_WINDOW_SECONDS, now };
}
