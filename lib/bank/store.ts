// The bank port: what the domain needs from storage. lib/bank/dynamo-store.ts is the DynamoDB
// adapter. Conditional writes that fail throw WriteRefused naming which condition failed.
import type { Device, MfaTokenRecord, OutboxEntry, TransferRecord, Verification, VerificationStatus } from './model.ts';

/** Consume an approved, unused verification of `userId` approved at or after `approvedSince`. */
export interface StepUp { userId: string; verificationId: string; approvedSince: number; now: number }

/** A response stored under an Idempotency-Key and replayed for retries. */
export interface StoredResponse { status: number; body: unknown; headers?: Record<string, string> }

/** Completes a reserved Idempotency-Key in the same transaction as the operation's own writes. */
export interface Completion { userId: string; keyHash: string; leaseId: string; response: StoredResponse }

export interface IdempotencyRecord { state: 'in_progress' | 'completed'; fingerprint: string; response?: StoredResponse }

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
export interface ListPage { data: TransferRecord[]; hasMore: boolean; resumeFrom?: string }

export type Refusal = 'step_up' | 'idempotency' | 'version' | 'missing' | 'replay' | 'token' | 'state';

export class WriteRefused extends Error {
  constructor(readonly reason: Refusal) { super(`write refused: ${reason}`); }
}

/** The cursor of a listing does not name a transfer of the caller. */
export class UnknownCursor extends Error {}

export interface Approval {
  now: number;
  /** otp: the accepted time step, which must be after the factor's last one. */
  step?: number;
  /** mfa_token used instead of a code: deleted when single-use, else checked. */
  token?: { tokenHash: string; consume: boolean };
  completion?: Completion;
}

export interface BankStore {
  putTransfer(transfer: TransferRecord, opts: { stepUp?: StepUp; completion?: Completion }): Promise<void>;
  getTransfer(userId: string, transferId: string): Promise<TransferRecord | undefined>;
  /** Writes the next version of a transfer; WriteRefused('version') when it changed meanwhile. */
  saveTransfer(transfer: TransferRecord, completion?: Completion): Promise<void>;
  listTransfers(query: ListQuery): Promise<ListPage>;

  putDevice(device: Device): Promise<void>;
  getDevice(userId: string, deviceId: string): Promise<Device | undefined>;
  listDevices(userId: string): Promise<Device[]>;
  deleteDevice(userId: string, deviceId: string, stepUp: StepUp): Promise<void>;

  createVerification(verification: Verification, opts: { outbox?: OutboxEntry; completion?: Completion }): Promise<void>;
  /** The verification and, when asked, an mfa_token, in one read. */
  getVerification(userId: string, verificationId: string, tokenHash?: string): Promise<{ verification?: Verification; token?: MfaTokenRecord }>;
  /** Records a failed attempt if the verification is still as read; WriteRefused('state') otherwise. */
  recordFailure(verification: Verification, attempts: number, status: VerificationStatus): Promise<void>;
  approve(verification: Verification, approval: Approval): Promise<void>;

  putMfaToken(token: MfaTokenRecord, completion?: Completion): Promise<void>;
  listOutbox(userId: string, now: number): Promise<OutboxEntry[]>;

  /** Reserves a key: undefined when reserved for this caller, else the record that holds it. */
  reserveIdempotencyKey(userId: string, keyHash: string, fingerprint: string, leaseId: string, now: number): Promise<IdempotencyRecord | undefined>;
  releaseIdempotencyKey(userId: string, keyHash: string, leaseId: string): Promise<void>;
}
