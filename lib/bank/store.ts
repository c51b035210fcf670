// The bank port: what the domain needs from storage. lib/bank/dynamo-store.ts is the DynamoDB
// adapter. Conditional writes that fail throw WriteRefused naming which condition failed.
import type { Completion, IdempotencyStore } from '../domain/idempotency.ts';
import type { LimitSlot } from './limits.ts';
import type { Device, MfaTokenRecord, OutboxEntry, TransferRecord, Verification, VerificationStatus } from './model.ts';

/** Consume an approved, unused verification of `userId` approved at or after `approvedSince`. */
export interface StepUp { userId: string; verificationId: string; approvedSince: number; now: number }

export type { Completion, IdempotencyRecord, StoredResponse } from '../domain/idempotency.ts';

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

export type Refusal = 'step_up' | 'idempotency' | 'version' | 'missing' | 'replay' | 'token' | 'state' | 'limit';

export class WriteRefused extends Error {
  /** `item`: the item as it was, when the write asked for it. */
  constructor(readonly reason: Refusal, readonly item?: Record<string, unknown>) { super(`write refused: ${reason}`); }
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
  /** The failure counted before the proof was checked, given back since the proof was right. */
  release?: LimitSlot;
}

export interface BankStore extends IdempotencyStore {
  putTransfer(transfer: TransferRecord, opts: { stepUp?: StepUp; completion?: Completion }): Promise<void>;
  getTransfer(userId: string, transferId: string): Promise<TransferRecord | undefined>;
  /** Writes the next version of a transfer; WriteRefused('version') when it changed meanwhile. */
  saveTransfer(transfer: TransferRecord, completion?: Completion): Promise<void>;
  listTransfers(query: ListQuery): Promise<ListPage>;

  putDevice(device: Device): Promise<void>;
  getDevice(userId: string, deviceId: string): Promise<Device | undefined>;
  listDevices(userId: string): Promise<Device[]>;
  deleteDevice(userId: string, deviceId: string, stepUp: StepUp): Promise<void>;

  /** With `start`: counted against the starts limit in the same transaction (LimitReached past it). */
  createVerification(verification: Verification, opts: { outbox?: OutboxEntry; completion?: Completion; start?: LimitSlot }): Promise<void>;
  /** Counts one event of a limit; LimitReached (nothing counted) when the limit is reached. */
  takeLimitSlot(slot: LimitSlot, now: number): Promise<void>;
  /** The verification and, when asked, an mfa_token, in one read. */
  getVerification(userId: string, verificationId: string, tokenHash?: string): Promise<{ verification?: Verification; token?: MfaTokenRecord }>;
  /** Records a failed attempt if the verification is still as read; WriteRefused('state') otherwise. */
  recordFailure(verification: Verification, attempts: number, status: VerificationStatus): Promise<void>;
  approve(verification: Verification, approval: Approval): Promise<void>;

  putMfaToken(token: MfaTokenRecord, completion?: Completion): Promise<void>;
  listOutbox(userId: string, now: number): Promise<OutboxEntry[]>;
}
