// The Bank ports: what the domain needs from storage and delivery. Adapters in ./adapters implement
// them (dynamo-*: DynamoDB, memory-*: in memory for tests; *-sender: code delivery); ./wiring.ts
// picks them. Failure convention (lib/data/failures.ts): a conditional write that loses throws a
// domain error: Conflict with the reason below, StepUpRequired, KeyInUse or NotFound.
import type { Completion } from '../domain/idempotency.ts';
import type { LimitSlot } from './limits.ts';
import type { DeviceKey } from './push-keys.ts';
import type {
  Device,
  MfaTokenRecord,
  OutboxEntry,
  TransferRecord,
  Verification,
  VerificationStatus,
} from './model.ts';

/** Consume an approved, unused verification of `userId` approved at or after `approvedSince`. */
export interface StepUp {
  userId: string;
  verificationId: string;
  approvedSince: number;
  now: number;
}

export type {
  Completion,
  IdempotencyRecord,
  IdempotencyStore,
  Origin,
  StoredResponse,
} from '../domain/idempotency.ts';

/**
 * Reasons of a Conflict thrown by a store: `version` (the transfer changed since read), `replay`
 * (a TOTP step not after the factor's last), `token` (the mfa_token is gone or expired), `state`
 * (the verification changed, or a concurrent transaction won), `credential` (a passkey's credential id
 * already registered to a factor), `factors` (the user's 10 factor slots are taken:
 * lib/bank/adapters/dynamo-factor-slots.ts). A failed step-up is StepUpRequired,
 * a lost Idempotency-Key KeyInUse, a missing factor NotFound.
 */
export type ConflictReason = 'version' | 'replay' | 'token' | 'state' | 'credential' | 'factors';

export interface ListQuery {
  userId: string;
  by: 'created' | 'amount';
  descending: boolean;
  limit: number;
  /** Position: strictly after (in the listing's order) or strictly before this transfer id. */
  after?: string;
  before?: string;
  currency?: string;
  destination?: string;
  /** Inclusive bounds. */
  created: { gte?: number; lte?: number };
  amount: { gte?: number; lte?: number };
  /** Lower-case search text. */
  q?: string;
}

/** `resumeFrom`: the read bound was hit; the listing continues after (before) this transfer id. */
export interface ListPage {
  data: TransferRecord[];
  hasMore: boolean;
  resumeFrom?: string;
}

export interface Approval {
  now: number;
  /** otp: the accepted time step, which must be after the factor's last one. */
  step?: number;
  /** passkey: the authenticator's new signature counter (must grow where it is not 0). */
  counter?: number;
  /** A recovery code used instead of a code: its hash leaves the user's set (single use). */
  recoveryHash?: string;
  /** mfa_token used instead of a code: deleted when single-use, else checked. */
  token?: { tokenHash: string; consume: boolean };
  completion?: Completion;
  /** The failure counted before the proof was checked, given back since the proof was right. */
  release?: LimitSlot;
}

export interface TransferStore {
  /**
   * Writes a new transfer, consuming the step-up and completing the key with what `complete` makes
   * of the stored transfer. Under a key (`complete`), a transfer of the same id already stored is
   * the one an earlier attempt under the key wrote (its id derives from the key's origin): it is
   * returned and completes the key. Resolves to the transfer stored.
   */
  putTransfer(
    transfer: TransferRecord,
    opts: { stepUp?: StepUp; complete?: (stored: TransferRecord) => Completion },
  ): Promise<TransferRecord>;
  getTransfer(userId: string, transferId: string): Promise<TransferRecord | undefined>;
  /** Writes the next version of a transfer; Conflict('version') when it changed meanwhile. */
  saveTransfer(transfer: TransferRecord, completion?: Completion): Promise<void>;
  /** BadInput when the cursor does not name a transfer of the user. */
  listTransfers(query: ListQuery): Promise<ListPage>;
}

export interface FactorStore {
  putDevice(device: Device): Promise<void>;
  getDevice(userId: string, deviceId: string): Promise<Device | undefined>;
  /** Oldest first. */
  listDevices(userId: string): Promise<Device[]>;
  /**
   * NotFound when there is no such factor; StepUpRequired when the step-up does not hold. A passkey's
   * credential id is freed with it (another factor may register it again).
   */
  deleteDevice(userId: string, deviceId: string, stepUp: StepUp): Promise<void>;

  /** With `start`: counted against the starts limit in the same transaction (LimitReached past it). */
  createVerification(
    verification: Verification,
    opts: { outbox?: OutboxEntry; completion?: Completion; start?: LimitSlot; pushPending?: boolean },
  ): Promise<void>;
  /**
   * Counts one event of a limit (lib/bank/limits.ts); LimitReached, nothing counted, past it.
   * Resolves to how many more events the window admits.
   */
  takeLimitSlot(slot: LimitSlot, now: number): Promise<number>;
  /** Gives back a counted event (a send counted, then not made). */
  releaseLimitSlot(slot: LimitSlot): Promise<void>;
  /** The verification, the user's current pending push id and, when asked, an mfa_token, in one read. */
  getVerification(
    userId: string,
    verificationId: string,
    tokenHash?: string,
  ): Promise<{ verification?: Verification; token?: MfaTokenRecord; currentPush?: string }>;
  /** Records a failed attempt if the verification is still as read; Conflict('state') otherwise. */
  recordFailure(verification: Verification, attempts: number, status: VerificationStatus): Promise<void>;
  /**
   * Conflict('state' | 'replay' | 'token'), NotFound when the factor was deleted, Gone when the
   * verification is a push no longer the user's current one.
   */
  approve(verification: Verification, approval: Approval): Promise<void>;

  putMfaToken(token: MfaTokenRecord, completion?: Completion): Promise<void>;
  /** Codes in the outbox that have not expired at `now`, in sending order. */
  listOutbox(userId: string, now: number): Promise<OutboxEntry[]>;
}

export interface CodeMessage {
  device: Device;
  verificationId: string;
  code: string;
  sent: number;
  expires_at: number;
}

export interface CodeSender {
  /** The outbox entry to store with the verification (in its transaction), or undefined if delivered. */
  stored(message: CodeMessage): OutboxEntry | undefined;
  /** Delivers the code once the verification is stored (so a refused start sends nothing). */
  deliver(message: CodeMessage): Promise<void>;
}

/** A push factor's activation ticket, stored by its hash. */
export interface PushTicket {
  ticketHash: string;
  userId: string;
  deviceId: string;
  expires_at: number;
}

/** An activated push device: whose it is and the key its JWTs and decisions are signed with. */
export interface PushDevice {
  deviceId: string;
  userId: string;
  key: DeviceKey;
}

/** Storage of enrolment: pending factors, their activation, push tickets, recovery codes. */
/** What enrolling a pending factor writes with it. */
export interface EnrolmentWrites {
  stepUp?: StepUp;
  outbox?: OutboxEntry;
  ticket?: PushTicket;
  completion?: Completion;
}

/** What activating a pending factor writes with it. */
export interface ActivationWrites {
  now: number;
  recoveryHashes?: string[];
  ticketHash?: string;
  push?: PushDevice;
  release?: LimitSlot;
  /** Consumed with the activation (a factor enrolled without a step-up, once another is active). */
  stepUp?: StepUp;
  /**
   * A passkey's credential id, claimed for this factor with the activation: Conflict('credential')
   * when any factor of any user holds it; freed when the factor is deleted.
   */
  credentialId?: string;
  /**
   * The user's first activation: the other pending factors enrolled without a step-up, deleted with
   * it (Conflict('state') if one is no longer pending), their slots given back. Pending, they hold
   * no push device key and no credential claim (both are written only by an activation).
   */
  discard?: Device[];
}

export interface EnrolmentStore {
  /** Oldest first. */
  listDevices(userId: string): Promise<Device[]>;
  getDevice(userId: string, deviceId: string): Promise<Device | undefined>;
  /** A new pending factor, with the step-up consumed, the code's outbox entry and the push ticket. */
  enrollDevice(device: Device, opts: EnrolmentWrites): Promise<void>;
  takeLimitSlot(slot: LimitSlot, now: number): Promise<number>;
  releaseLimitSlot(slot: LimitSlot): Promise<void>;
  /**
   * Makes a pending, unexpired factor active with `changes`; Conflict('state') if it is not (any
   * more). With it: the first recovery codes (Conflict('state') if the user has some), the push
   * ticket used and the push device stored, the counted attempt given back, the `discard`ed
   * factors deleted.
   */
  activateDevice(device: Device, changes: Partial<Device>, opts: ActivationWrites): Promise<void>;
  getTicket(ticketHash: string): Promise<PushTicket | undefined>;
  hasRecoveryCodes(userId: string): Promise<boolean>;
  /** Replaces the user's recovery codes, consuming the step-up. */
  replaceRecoveryCodes(userId: string, hashes: string[], stepUp: StepUp): Promise<void>;
}

/** The counters of the abuse limits alone (lib/bank/limits.ts): the per-source limit. */
export interface LimitStore {
  takeLimitSlot(slot: LimitSlot, now: number): Promise<number>;
  /** Seconds until the limit admits again when it admits nothing now, else undefined. */
  limitReached(slot: LimitSlot, now: number): Promise<number | undefined>;
}

/** Storage of push answers. */
export interface PushStore {
  getPushDevice(deviceId: string): Promise<PushDevice | undefined>;
  /** The user's current pending push verification id, and that verification. */
  currentPush(userId: string): Promise<{ verification?: Verification; current?: string }>;
  /** Whether a decision was answered before (its replay key is stored). */
  replayed(replayKey: string): Promise<boolean>;
  /**
   * Settles a pending push verification (Conflict('state') if it is not pending) and stores the
   * decision's replay key (Conflict('replay') if it was used).
   */
  decide(v: Verification, status: 'approved' | 'denied', replayKey: string, now: number): Promise<void>;
}

/** SNS mobile push: an endpoint per device token, a notification naming the challenge. */
export interface PushNotifier {
  /** The endpoint ARN of a device token, or undefined when the stack has no platform application. */
  register(pushToken: string, deviceId: string): Promise<string | undefined>;
  notify(endpoint: string, verificationId: string): Promise<void>;
}

/** Who is an admin (the identity directory answers). */
export interface Admins {
  isAdmin(userId: string): Promise<boolean>;
}

/** Authenticator-app codes (TOTP, RFC 6238). lib/bank/totp.ts implements it with otplib, which only
 * the functions that enrol factors or check codes bundle (lib/bank/wiring.ts). */
export interface Totp {
  newSecret(): string;
  uri(secret: string, account: string): string;
  /** The time step a correct code belongs to; undefined for a wrong or out-of-window code. */
  verify(secret: string, code: string, epochSeconds: number): Promise<number | undefined>;
}
