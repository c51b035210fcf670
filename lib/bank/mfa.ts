// Multi-factor: enrolment (admin CLI), listing and deleting factors, verifications with codes,
// TOTP or recovery mfa_tokens, and issuing mfa_tokens. Knows nothing of HTTP.
import { seconds } from '../domain/clock.ts';
import {
  Conflict,
  Gone,
  Invalid,
  isConflict,
  LimitReached,
  NotFound,
  StepUpRequired,
  type FieldProblem,
} from '../domain/errors.ts';
import { seal, unseal } from '../domain/seal.ts';
import { FactorServiceBase } from './factor-deps.ts';
import { hashCode, newCode, newMfaToken, sameHash, sha256 } from './crypto.ts';
import { assertDestination } from './destinations.ts';
import { DEVICE_ID, newDeviceId, newVerificationId, VERIFICATION_ID } from './ids.ts';
import {
  MAX_ATTEMPTS,
  MFA_TOKEN_MAX_SECONDS,
  VERIFICATION_TTL_SECONDS,
  isActive,
  proofKind,
  type Device,
  type FactorKind,
  type FactorStatus,
  type MfaTokenRecord,
  type OutboxEntry,
  type Verification,
} from './model.ts';
import { isLimitError, limitSlot, MFA_LIMITS, SEND_LIMITS } from './limits.ts';
import { channelOf, releaseSends, sendSlots, takeSends } from './sends.ts';
import type { CodeMessage, FactorStore } from './ports.ts';
import type { PublicKeyCredentialRequestOptionsJSON } from './passkeys.ts';
import * as passkeys from './passkeys.ts';
import { newMatchNumber } from './push-keys.ts';
import { recoveryHash } from './recovery.ts';
import { stepUpFor, stepUpRequired, type Complete } from './step-up.ts';

export type SecurityEvent =
  | 'verification_failed'
  | 'factor_deleted'
  | 'mfa_token_issued'
  | 'mfa_limit_reached'
  | 'code_send_limited'
  | 'factor_enrolled'
  | 'factor_activated'
  | 'push_denied'
  | 'recovery_code_used'
  | 'recovery_codes_replaced'
  // Refusals: a wrong activation code, a refused WebAuthn registration or assertion, a step-up that
  // does not hold, a forged or replayed device JWT or decision naming a real device.
  | 'activation_refused'
  | 'passkey_refused'
  | 'step_up_refused'
  | 'device_auth_refused';
/** Records a security event about `userId` (the caller adds who, when and the request id). */
export type SecurityLog = (event: SecurityEvent, userId: string, details?: Record<string, unknown>) => void;

export interface PublicDevice {
  id: string;
  kind: FactorKind;
  name: string;
  default: boolean;
  created: number;
  last_used: number | null;
  status: FactorStatus;
}
export interface PublicVerification {
  id: string;
  device_id: string;
  status: Verification['status'] | 'expired';
  expires_at: number;
  /** push: the number the caller shows the user, who types it on the device. */
  number?: number;
  /** device (passkey): PublicKeyCredentialRequestOptionsJSON for the browser. */
  public_key?: PublicKeyCredentialRequestOptionsJSON;
}
export interface IssuedMfaToken {
  mfa_token: string;
  expires_at: number;
  reusable: boolean;
}
/** Exactly one member: a code, an mfa_token, a recovery code, or a passkey's assertion. */
export interface Proof {
  code?: string;
  mfa_token?: string;
  recovery_code?: string;
  credential?: unknown;
}

export interface Enrolment {
  userId: string;
  kind: FactorKind;
  name?: string;
  phone?: string;
  email?: string;
  account?: string;
}

const PHONE = /^\+[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const presentDevice = (d: Device): PublicDevice => ({
  id: d.id,
  kind: d.kind,
  name: d.name,
  default: isActive(d) && d.default,
  created: d.created,
  last_used: d.last_used,
  status: d.status ?? 'active',
});
/** A pending factor past its 10 minutes is gone, even before the table's ttl deletes it. */
export const live = (d: Device, now: number) => isActive(d) || (d.pendingUntil ?? 0) > now;

/** A pending verification past its expiry, or a push superseded by a newer one, is `expired`. */
export const presentVerification = (v: Verification, now: number, current?: string): PublicVerification => ({
  id: v.id,
  device_id: v.deviceId,
  status:
    v.status === 'pending' && (v.expires_at <= now || (current !== undefined && current !== v.id))
      ? 'expired'
      : v.status,
  expires_at: v.expires_at,
});

/**
 * Runs `write`; a reached limit is logged as a security event (`code_send_limited` for the send
 * limits, else `mfa_limit_reached`) and thrown on (429, or 503 for the stack's sends, + Retry-After).
 * `userId`: whose request it is, when the limit's counter belongs to no user (a destination, the stack).
 */
export async function limited(log: SecurityLog, write: () => Promise<void>, userId?: string): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (isLimitError(err)) {
      const { windowSeconds } = MFA_LIMITS[err.slot.name];
      const send = SEND_LIMITS.includes(err.slot.name);
      log(send ? 'code_send_limited' : 'mfa_limit_reached', userId ?? err.slot.userId, {
        limit: err.slot.name,
        // A destination's counter is named by its HMAC only; the channel is the subject.
        subject: err.slot.subject,
        max: err.slot.max,
        windowSeconds,
        retryAfterSeconds: err.retryAfterSeconds,
      });
    }
    throw err;
  }
}

/** A WebAuthn assertion refused: a security event of its own (the failed attempt is another). */
const passkeyRefused = (log: SecurityLog, v: Verification, reason: string) =>
  log('passkey_refused', v.userId, {
    deviceId: v.deviceId,
    verificationId: v.id,
    ceremony: 'authentication',
    reason,
  });

const tooManyAttempts = () =>
  new LimitReached(`The verification failed ${MAX_ATTEMPTS} times; start a new one`, 0, {
    details: { attempts_left: 0 },
  });
type ProofField = 'code' | 'mfa_token' | 'recovery_code' | 'credential';
const proofField = (p: Proof): ProofField =>
  p.code !== undefined
    ? 'code'
    : p.mfa_token !== undefined
      ? 'mfa_token'
      : p.recovery_code !== undefined
        ? 'recovery_code'
        : 'credential';
const invalid = (field: string, message: string) =>
  new Invalid('One or more fields are invalid', { fields: [{ field, message }] });

export class MfaService extends FactorServiceBase<FactorStore> {
  private now(): number {
    return seconds(this.clock);
  }

  /** Enrols a factor; for otp the secret and otpauth:// URI are returned, this once. */
  async enroll(e: Enrolment): Promise<{ device: PublicDevice; secret?: string; otpauth_uri?: string }> {
    const address =
      e.kind === 'sms' || e.kind === 'voice' ? e.phone : e.kind === 'email' ? e.email : undefined;
    if ((e.kind === 'sms' || e.kind === 'voice') && !(address && PHONE.test(address))) {
      throw invalid('phone', `A ${e.kind} factor needs an E.164 phone number (+15551234567)`);
    }
    if (e.kind === 'email' && !(address && EMAIL.test(address)))
      throw invalid('email', 'An email factor needs an email address');
    const secret = e.kind === 'otp' ? this.totp.newSecret() : undefined;
    const existing = await this.store.listDevices(e.userId);
    const device: Device = {
      id: newDeviceId(this.clock.now()),
      userId: e.userId,
      kind: e.kind,
      name: e.name ?? `${e.kind} factor`,
      default: existing.length === 0,
      created: this.now(),
      last_used: null,
      address: address ?? null,
      sealedSecret: secret ? seal(secret, await this.secretKey()) : null,
      lastStep: null,
    };
    await this.store.putDevice(device);
    return {
      device: presentDevice(device),
      ...(secret ? { secret, otpauth_uri: this.totp.uri(secret, e.account ?? e.userId) } : {}),
    };
  }

  /** Oldest first (factor ids sort by creation time); pending ones until they expire. */
  async listDevices(userId: string): Promise<PublicDevice[]> {
    const now = this.now();
    return (await this.store.listDevices(userId)).filter((d) => live(d, now)).map(presentDevice);
  }

  async deleteDevice(
    userId: string,
    deviceId: string,
    verificationId: string | undefined,
    log: SecurityLog,
  ): Promise<void> {
    const why = 'Deleting a factor needs a step-up';
    const stepUp = stepUpFor(userId, verificationId, this.now(), why);
    if (!DEVICE_ID.test(deviceId)) throw new NotFound(`Factor ${deviceId} does not exist`);
    try {
      await this.store.deleteDevice(userId, deviceId, stepUp);
    } catch (err) {
      if (err instanceof StepUpRequired) throw stepUpRequired(why);
      if (err instanceof NotFound) throw new NotFound(`Factor ${deviceId} does not exist`);
      throw err;
    }
    log('factor_deleted', userId, { deviceId, verificationId });
  }

  async startVerification(
    userId: string,
    deviceId: string,
    complete?: Complete<PublicVerification>,
    log: SecurityLog = () => {},
  ): Promise<PublicVerification> {
    const device = await this.store.getDevice(userId, deviceId);
    if (!device) throw invalid('device_id', 'No such factor of this user');
    if (!isActive(device)) throw invalid('device_id', 'The factor is not active yet: activate it first');
    // A factor enrolled before the destination policy (or before the allow-list changed) sends nothing.
    if ((device.kind === 'sms' || device.kind === 'voice') && device.address)
      assertDestination(device.address, this.allowedCallingCodes());
    const now = this.now();
    const verification: Verification = {
      id: newVerificationId(),
      userId,
      deviceId,
      kind: device.kind,
      status: 'pending',
      attempts: 0,
      created: now,
      expires_at: now + VERIFICATION_TTL_SECONDS,
      codeHash: null,
      sealedSecret: device.sealedSecret,
      approvedAt: null,
      consumedAt: null,
      sealedChallenge: null,
      passkey: null,
      pushKey: null,
    };
    const sender = this.sender();
    let message: CodeMessage | undefined;
    let outbox: OutboxEntry | undefined;
    const proof = proofKind(device);
    const extra: Pick<PublicVerification, 'number' | 'public_key'> = {};
    if (proof === 'passkey') {
      const options = await passkeys.authenticationOptions(this.passkeyConfig(), [device.passkey!]);
      verification.sealedChallenge = seal(options.challenge, await this.secretKey());
      verification.passkey = device.passkey;
      extra.public_key = options;
    } else if (proof === 'push') {
      // Number matching: the caller shows the number; the device's decision must carry it.
      const number = newMatchNumber();
      verification.codeHash = hashCode(await this.secretKey(), verification.id, String(number));
      verification.pushKey = device.pushKey;
      extra.number = number;
    } else if (device.kind !== 'otp') {
      const code = newCode();
      verification.codeHash = hashCode(await this.secretKey(), verification.id, code);
      message = {
        device,
        verificationId: verification.id,
        code,
        sent: now,
        expires_at: verification.expires_at,
      };
      const entry = sender.stored(message);
      // The outbox holds the code sealed (no secret at rest in plaintext); outbox() opens it.
      if (entry) outbox = { ...entry, code: seal(entry.code, await this.secretKey()) };
    }
    const result = { ...presentVerification(verification, now), ...extra };
    const start = limitSlot('starts', userId, deviceId, now);
    // A code sent counts against its destination's and the stack's sends first (given back if the
    // start is refused); the start itself is counted in the verification's transaction.
    const channel = message && device.address ? channelOf(device.kind) : undefined;
    const sends = channel
      ? sendSlots({
          key: await this.secretKey(),
          address: device.address!,
          channel,
          now,
          stackMax: this.stackSendLimit(),
        })
      : [];
    await limited(log, () => takeSends(this.store, sends, now), userId);
    try {
      await limited(log, () =>
        this.store.createVerification(verification, {
          outbox,
          completion: complete?.(result),
          start,
          pushPending: proof === 'push',
        }),
      );
    } catch (err) {
      await releaseSends(this.store, sends);
      throw err;
    }
    // Delivered once stored: a refused start sends nothing.
    if (message) await sender.deliver(message);
    if (proof === 'push' && device.pushEndpoint)
      await this.notifier().notify(device.pushEndpoint, verification.id);
    return result;
  }

  async verify(
    userId: string,
    verificationId: string,
    proof: Proof,
    log: SecurityLog,
    complete?: Complete<{ id: string; status: 'approved' }>,
  ) {
    if (!VERIFICATION_ID.test(verificationId))
      throw new NotFound(`Verification ${verificationId} does not exist`);
    const tokenHash = proof.mfa_token === undefined ? undefined : sha256(proof.mfa_token);
    const {
      verification: v,
      token,
      currentPush,
    } = await this.store.getVerification(userId, verificationId, tokenHash);
    if (!v) throw new NotFound(`Verification ${verificationId} does not exist`);
    if (v.status === 'approved') throw new Conflict('The verification is already approved');
    if (v.status === 'max_attempts_reached') throw tooManyAttempts();
    const now = this.now();
    // An expired verification, or a push superseded by a newer one, approves nothing, whatever the proof.
    if (
      v.status !== 'pending' ||
      presentVerification(v, now, v.pushKey ? currentPush : undefined).status === 'expired'
    )
      throw new Gone(
        v.expires_at <= now || v.status !== 'pending'
          ? 'The verification expired; start a new one'
          : 'A newer push verification superseded this one; start a new one',
      );

    const field = proofField(proof);
    const kind = v.passkey ? 'passkey' : v.pushKey ? 'push' : 'code';
    // A proof of the wrong kind is refused before an attempt is counted.
    if ((field === 'code' && kind !== 'code') || (field === 'credential' && kind !== 'passkey'))
      throw invalid(
        field,
        kind === 'passkey'
          ? 'A passkey verification takes the credential (AuthenticationResponseJSON)'
          : kind === 'push'
            ? 'A push verification is answered on the device'
            : 'This verification takes a code',
      );
    // Counted as a failure before the proof is checked; given back by the approval if it is right.
    const attempt =
      field === 'code' || field === 'credential'
        ? limitSlot('codeFailures', userId, v.deviceId, now)
        : limitSlot('tokenFailures', userId, 'USER', now);
    await limited(log, () => this.store.takeLimitSlot(attempt, now).then(() => undefined));
    let step: number | undefined;
    let counter: number | undefined;
    let valid: boolean;
    if (field === 'mfa_token')
      valid = token !== undefined && token.userId === userId && token.expires_at > now;
    else if (field === 'recovery_code')
      valid = true; // checked by the approval (the set must hold it)
    else if (field === 'credential') {
      try {
        const checked = await passkeys.verifyAuthentication(
          this.passkeyConfig(),
          proof.credential,
          unseal(v.sealedChallenge!, await this.secretKey()),
          v.passkey!,
        );
        counter = checked.newCounter;
        valid = true;
      } catch (err) {
        if (!(err instanceof Invalid)) throw err;
        passkeyRefused(log, v, err.fields?.[0]?.message ?? err.message);
        return this.fail(v, field, log, err.fields ?? [{ field, message: err.message }]);
      }
    } else if (v.kind === 'otp') {
      step = await this.totp.verify(unseal(v.sealedSecret!, await this.secretKey()), proof.code!, now);
      valid = step !== undefined;
    } else valid = sameHash(v.codeHash!, hashCode(await this.secretKey(), v.id, proof.code!));
    if (!valid) return this.fail(v, field, log);

    const result = { id: v.id, status: 'approved' as const };
    try {
      await this.store.approve(v, {
        now,
        step,
        counter,
        recoveryHash: field === 'recovery_code' ? recoveryHash(proof.recovery_code!) : undefined,
        token: token && tokenHash ? { tokenHash, consume: !token.reusable } : undefined,
        completion: complete?.(result),
        release: attempt,
      });
    } catch (err) {
      // A TOTP step already used, a passkey counter that did not grow, or an mfa_token used up
      // meanwhile, is a wrong proof.
      if (isConflict(err, 'replay') || isConflict(err, 'token')) {
        if (field === 'credential') passkeyRefused(log, v, 'The signature counter did not grow');
        return this.fail(v, field, log);
      }
      if (err instanceof NotFound) throw new Gone('The factor of this verification was deleted');
      throw err;
    }
    if (field === 'recovery_code') log('recovery_code_used', userId, { verificationId: v.id });
    return result;
  }

  async issueMfaToken(
    userId: string,
    opts: { expires_in?: number; reusable?: boolean },
    log: SecurityLog,
    complete?: Complete<IssuedMfaToken>,
  ): Promise<IssuedMfaToken> {
    const now = this.now();
    const token = newMfaToken();
    const record: MfaTokenRecord = {
      tokenHash: sha256(token),
      userId,
      reusable: opts.reusable ?? false,
      expires_at: now + (opts.expires_in ?? MFA_TOKEN_MAX_SECONDS),
      created: now,
    };
    const issued = { mfa_token: token, expires_at: record.expires_at, reusable: record.reusable };
    await this.store.putMfaToken(record, complete?.(issued));
    log('mfa_token_issued', userId, { expires_at: record.expires_at, reusable: record.reusable });
    return issued;
  }

  /** Codes sent through the outbox sender that have not expired (admin CLI). */
  async outbox(userId: string) {
    const key = await this.secretKey();
    return (await this.store.listOutbox(userId, this.now())).map((e) => ({
      ...e,
      code: unseal(e.code, key),
    }));
  }

  private async fail(
    v: Verification,
    field: ProofField,
    log: SecurityLog,
    fields: FieldProblem[] = [{ field, message: 'Wrong or already used' }],
  ): Promise<never> {
    const attempts = v.attempts + 1;
    const exhausted = attempts >= MAX_ATTEMPTS;
    await this.store.recordFailure(v, attempts, exhausted ? 'max_attempts_reached' : 'pending');
    log('verification_failed', v.userId, { verificationId: v.id, deviceId: v.deviceId, attempts });
    if (exhausted) throw tooManyAttempts();
    throw new Invalid(`The ${field} is wrong`, {
      fields,
      details: { attempts_left: MAX_ATTEMPTS - attempts },
    });
  }
}
