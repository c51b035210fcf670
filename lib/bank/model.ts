// Bank records as the domain sees them. Times are unix seconds.
import type { StoredPasskey } from './passkeys.ts';
import type { DeviceKey } from './push-keys.ts';
export interface Transfer {
  id: string;
  amount: number;
  currency: string;
  destination: string;
  description: string | null;
  metadata: Record<string, string>;
  created: number;
  updated: number;
}

/** A stored transfer: the wire shape plus its owner and a version for conditional updates. */
export interface TransferRecord extends Transfer {
  userId: string;
  version: number;
}

export const FACTOR_KINDS = ['sms', 'voice', 'otp', 'push', 'email', 'device'] as const;
export type FactorKind = (typeof FACTOR_KINDS)[number];

export interface Device {
  id: string;
  userId: string;
  kind: FactorKind;
  name: string;
  default: boolean;
  created: number;
  last_used: number | null;
  /** Phone number (sms, voice) or email address (email) codes are sent to. */
  address: string | null;
  /** AES-256-GCM sealed base32 TOTP secret (otp only). */
  sealedSecret: string | null;
  /** Last accepted TOTP time step (otp only). */
  lastStep: number | null;
  /**
   * Absent on factors enrolled before enrolment through the API (the admin CLI's, and code-based
   * push and device factors of earlier releases): those are active, and prove themselves by a code.
   */
  status?: FactorStatus | null;
  /** Pending factors: the unix second the factor is gone if not activated (also its ttl). */
  pendingUntil?: number | null;
  /** Pending sms, voice, email: HMAC of the activation code sent. */
  activationHash?: string | null;
  /** Pending device: the registration challenge, sealed (AES-GCM) until the activation uses it. */
  sealedChallenge?: string | null;
  /** Active device (passkey): credential id, COSE public key, signature counter, transports. */
  passkey?: StoredPasskey | null;
  /** Active push: the device app's EC P-256 public key (JWK), and its SNS endpoint if any. */
  pushKey?: DeviceKey | null;
  pushEndpoint?: string | null;
  /** Pending: enrolled while the user had no active factor (no step-up); activating it once another is active needs one. */
  enrolledWithoutStepUp?: boolean | null;
}

export type FactorStatus = 'pending_activation' | 'active';
/** A factor that is in use: activated, or enrolled before activation existed. */
export const isActive = (d: Device) => (d.status ?? 'active') === 'active';
/** Pending factors live this long (spec: 10 minutes). */
export const PENDING_TTL_SECONDS = 600;
/** A push activation ticket lives this long. */
export const TICKET_TTL_SECONDS = 300;
/** At most this many factors a user (pending ones count). */
export const MAX_FACTORS = 10;
export const RECOVERY_CODE_COUNT = 10;

/** How a verification's factor is proven: a code (sms, voice, email, otp, and factors enrolled
 * before), a passkey assertion, or a push decision signed by the device. */
export type ProofKind = 'code' | 'passkey' | 'push';
export const proofKind = (d: Device): ProofKind =>
  d.kind === 'device' && d.passkey ? 'passkey' : d.kind === 'push' && d.pushKey ? 'push' : 'code';

export type VerificationStatus = 'pending' | 'approved' | 'denied' | 'max_attempts_reached';

export interface Verification {
  id: string;
  userId: string;
  deviceId: string;
  kind: FactorKind;
  status: VerificationStatus;
  /** Failed attempts so far. */
  attempts: number;
  created: number;
  expires_at: number;
  /** HMAC of the code we sent (not otp). */
  codeHash: string | null;
  /** Copy of the factor's sealed TOTP secret (otp), so verifying reads one item. */
  sealedSecret: string | null;
  approvedAt: number | null;
  consumedAt: number | null;
  /** Passkey verifications: the sealed assertion challenge, and the passkey as it was at the start. */
  sealedChallenge?: string | null;
  passkey?: StoredPasskey | null;
  /** Push verifications: the device key (so answering reads one item). */
  pushKey?: DeviceKey | null;
}

export interface MfaTokenRecord {
  tokenHash: string;
  userId: string;
  reusable: boolean;
  expires_at: number;
  created: number;
}

/** A code delivered through the outbox sender (the local stand-in for phones and mailboxes); stored sealed. */
export interface OutboxEntry {
  userId: string;
  verificationId: string;
  deviceId: string;
  channel: FactorKind;
  to: string | null;
  code: string;
  sent: number;
  expires_at: number;
}

export const MAX_ATTEMPTS = 5;
export const VERIFICATION_TTL_SECONDS = 600;
export const STEP_UP_WINDOW_SECONDS = 300;
export const MFA_TOKEN_MAX_SECONDS = 259_200;

export const DAY_SECONDS = 86_400;
export { IDEMPOTENCY_LEASE_SECONDS, IDEMPOTENCY_RETENTION_SECONDS } from '../domain/idempotency.ts';

/** Largest transfer amount, in minor units (amounts sort as 8 digits). */
export const MAX_AMOUNT = 99_999_999;
/** Most metadata keys a transfer carries. */
export const MAX_METADATA_KEYS = 50;
