// The routes without an API token (the device app's: POST /api/push/activations, the push
// challenge routes) have no caller to limit, so their refused requests are limited per source
// address (docs/bank.md, "Abuse limits"): past MFA_LIMITS.sourceRefusals in a window, every request
// of that address is refused (429 + Retry-After) before its ticket or JWT is looked at; another
// address is not affected. The counter is keyed by the address's SHA-256. Knows nothing of HTTP.
import { seconds, type Clock } from '../domain/clock.ts';
import { sha256 } from './crypto.ts';
import { isLimitError, limitSlot, MfaLimitReached, type LimitSlot } from './limits.ts';
import type { LimitStore } from './ports.ts';

/** The counter partition of a source address. */
export const SOURCE = (address: string) => `SOURCE#${sha256(address)}`;

export class SourceLimits {
  constructor(
    private readonly store: LimitStore,
    private readonly clock: Clock,
  ) {}

  private slot(address: string): { slot: LimitSlot; now: number } {
    const now = seconds(this.clock);
    return { slot: limitSlot('sourceRefusals', SOURCE(address), 'ADDRESS', now), now };
  }

  /** MfaLimitReached (429 + Retry-After) when the address has used up its refusals (one read). */
  async admit(address: string): Promise<void> {
    const { slot, now } = this.slot(address);
    const wait = await this.store.limitReached(slot, now);
    if (wait !== undefined) throw new MfaLimitReached(slot, wait);
  }

  /** Counts a refused request of the address; past the limit nothing more is counted. */
  async refused(address: string): Promise<void> {
    const { slot, now } = this.slot(address);
    try {
      await this.store.takeLimitSlot(slot, now);
    } catch (err) {
      if (!isLimitError(err)) throw err;
    }
  }
}
