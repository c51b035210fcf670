// The Bank's Idempotency-Key: the shared implementation (lib/domain/idempotency.ts).
export {
  IdempotencyKeys,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  requestFingerprint,
  type Reservation,
} from '../domain/idempotency.ts';
