// The destination policy of sms and voice codes (SMS pumping): never the international shared-cost,
// premium-rate or satellite ranges, and, when an allow-list of calling codes is configured
// (SMS_VOICE_ALLOWED_CALLING_CODES), only those. Knows nothing of HTTP.
import { Invalid } from '../domain/errors.ts';

/** ITU-T E.164 ranges no code is ever sent to: shared-cost (+808, +878, +979), premium and satellite. */
export const REFUSED_CALLING_CODES = ['808', '870', '878', '881', '882', '883', '979', '991'] as const;

/** `1,44,+49` → ['1', '44', '49']; anything that is not a 1-3 digit calling code is ignored. */
export const parseCallingCodes = (list: string): string[] =>
  list
    .split(',')
    .map((c) => c.trim().replace(/^\+/, ''))
    .filter((c) => /^[1-9]\d{0,2}$/.test(c));

/** Why a code is not sent to this E.164 number, or undefined when it may be. */
export function refusal(phone: string, allowed: readonly string[]): string | undefined {
  const digits = phone.slice(1);
  const refused = REFUSED_CALLING_CODES.find((c) => digits.startsWith(c));
  if (refused) return `Codes are not sent to +${refused} numbers (shared-cost, premium-rate or satellite)`;
  if (allowed.length && !allowed.some((c) => digits.startsWith(c)))
    return `Codes are sent only to numbers with calling code ${allowed.map((c) => `+${c}`).join(', ')}`;
  return undefined;
}

/** Throws a 422 naming `phone_number` when the policy refuses the number. */
export function assertDestination(phone: string, allowed: readonly string[]): void {
  const why = refusal(phone, allowed);
  if (why)
    throw new Invalid('One or more fields are invalid', {
      fields: [{ field: 'phone_number', message: why }],
    });
}
