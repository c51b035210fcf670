// The errors every Bank adapter (DynamoDB and in memory) throws for a conditional write that lost,
// so both honour the same contract (test/contract/bank.ts).
import { BadInput, Conflict, Gone, KeyInUse, NotFound, StepUpRequired } from '../../domain/errors.ts';
import type { ConflictReason } from '../ports.ts';

const conflict = (reason: ConflictReason) => () =>
  new Conflict('A concurrent request changed the same resource; retry', { reason });

export const lost = {
  stepUp: () => new StepUpRequired('The step-up verification is not approved, recent and unused'),
  key: () => new KeyInUse('The Idempotency-Key was taken over by another request; retry'),
  version: conflict('version'),
  state: conflict('state'),
  replay: conflict('replay'),
  token: conflict('token'),
  /** A passkey credential id another factor (of any user) registered. */
  credential: conflict('credential'),
  /** The user's factor slots are all taken (at most MAX_FACTORS, lib/bank/model.ts). */
  factors: () => new Conflict('A user has at most 10 factors; delete one first', { reason: 'factors' }),
  device: () => new NotFound('The factor does not exist'),
  /** A push verification superseded by a newer push of the same user. */
  superseded: () => new Gone('A newer push verification superseded this one; start a new one'),
  /** A listing's cursor that does not name a transfer of the caller. */
  cursor: () => new BadInput('The cursor does not name one of your transfers', { reason: 'cursor' }),
};
