// The Bank's domain over the in-memory adapters and a fixed clock: what each unit test starts from.
import { MemoryFactorStore } from '../../../lib/bank/adapters/memory-factors.ts';
import { MemoryIdempotencyStore } from '../../../lib/bank/adapters/memory-idempotency.ts';
import { MemoryBankTables } from '../../../lib/bank/adapters/memory-tables.ts';
import { MemoryTransferStore } from '../../../lib/bank/adapters/memory-transfers.ts';
import { outboxSender } from '../../../lib/bank/adapters/outbox-sender.ts';
import { BankAccess } from '../../../lib/bank/access.ts';
import { IdempotencyKeys } from '../../../lib/bank/idempotency.ts';
import { MfaService, type SecurityEvent } from '../../../lib/bank/mfa.ts';
import { otplibTotp } from '../../../lib/bank/totp.ts';
import { TransferService } from '../../../lib/bank/transfers.ts';
import { FixedClock } from '../../../lib/domain/clock.ts';

export const STEP_UP_AMOUNT = 1_000_000;
export const START_MS = 1_800_000_000_000;

export function bank(admins: string[] = []) {
  const clock = new FixedClock(START_MS);
  const tables = new MemoryBankTables();
  const factors = new MemoryFactorStore(tables);
  const events: Array<{ event: SecurityEvent; userId: string }> = [];
  return {
    clock,
    tables,
    events,
    transfers: new TransferService(new MemoryTransferStore(tables), () => STEP_UP_AMOUNT, clock),
    mfa: new MfaService({
      store: factors,
      sender: () => outboxSender,
      clock,
      secretKey: async () => 'unit-test-key',
      totp: otplibTotp,
    }),
    keys: new IdempotencyKeys(new MemoryIdempotencyStore(tables), clock),
    access: new BankAccess({ isAdmin: async (id) => admins.includes(id) }),
    log: (event: SecurityEvent, userId: string) => {
      events.push({ event, userId });
    },
  };
}

export const newTransfer = { amount: 1250, currency: 'eur', destination: 'acct_rent' };
