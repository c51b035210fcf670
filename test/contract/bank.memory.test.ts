import { MemoryEnrolmentStore } from '../../lib/bank/adapters/memory-enrolment.ts';
import { MemoryFactorStore } from '../../lib/bank/adapters/memory-factors.ts';
import { MemoryIdempotencyStore } from '../../lib/bank/adapters/memory-idempotency.ts';
import { MemoryBankTables } from '../../lib/bank/adapters/memory-tables.ts';
import { MemoryTransferStore } from '../../lib/bank/adapters/memory-transfers.ts';
import { bankContract } from './bank.ts';

bankContract('in memory', () => {
  const tables = new MemoryBankTables();
  return {
    transfers: new MemoryTransferStore(tables),
    factors: new MemoryFactorStore(tables),
    keys: new MemoryIdempotencyStore(tables),
    enrolment: new MemoryEnrolmentStore(tables),
  };
});
