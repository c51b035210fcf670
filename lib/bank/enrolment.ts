// Enrolment through the API: a factor is enrolled `pending_activation` with its activation data
// shown once (an otp secret, a code sent, a push ticket, passkey registration options), and made
// `active` by proving it (a code, a WebAuthn registration, the device app's key with the ticket).
// The first factor a user activates brings ten recovery codes. Knows nothing of HTTP.
import { randomBytes } from 'node:crypto';
import { seconds } from '../domain/clock.ts';
import {
  Conflict,
  Forbidden,
  Gone,
  Invalid,
  isConflict,
  NotFound,
  StepUpRequired,
} from '../domain/errors.ts';
import { seal, unseal } from '../domain/seal.ts';
import { FactorServiceBase } from './factor-deps.ts';
import { hashCode, newCode, sameHash, sha256 } from './crypto.ts';
import { assertDestination } from './destinations.ts';
import { DEVICE_ID, newDeviceId } from './ids.ts';
import { limitSlot } from './limits.ts';
import {
  isActive,
  MAX_FACTORS,
  PENDING_TTL_SECONDS,
  TICKET_TTL_SECONDS,
  type Device,
  type FactorKind,
  type OutboxEntry,
} from './model.ts';
import { limited, live, presentDevice, type PublicDevice, type SecurityLog } from './mfa.ts';
import { newRecoveryCodes, recoveryHash } from './recovery.ts';
import type { PublicKeyCredentialCreationOptionsJSON, StoredPasskey } from './passkeys.ts';
import * as passkeys from './passkeys.ts';
import type { CodeMessage, EnrolmentStore, PushTicket, StepUp } from './ports.ts';
import { parseDeviceKey } from './push-keys.ts';
import { channelOf, releaseSends, sendSlots, takeSends } from './sends.ts';
import { stepUpFor, stepUpRequired } from './step-up.ts';

export interface EnrolRequest {
  kind: FactorKind;
  name?: string;
  phone_number?: string;
  email?: string;
}

export type Activation =
  | { secret: string; otpauth_uri: string }
  | { sent_to: string }
  | { ticket: string; expires_at: number }
  | { public_key: PublicKeyCredentialCreationOptionsJSON };

export interface EnrolledFactor extends PublicDevice {
  activation: Activation;
}
export interface ActivatedFactor extends PublicDevice {
  recovery_codes?: string[];
}

export type ActivationProof =
  | { code: string; credential?: undefined }
  | { credential: unknown; code?: undefined };

export interface PushActivation {
  ticket: string;
  public_key: unknown;
  name?: string;
  push_token?: string;
}

const PHONE = /^\+[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TICKET = /^pt_[A-Za-z0-9_-]{43}$/;

const invalid = (field: string, message: string) =>
  new Invalid('One or more fields are invalid', { fields: [{ field, message }] });

/** Two-digit E.164 country calling codes; 1 and 7 take one digit, every other code three (the codes are prefix-free). */
const TWO_DIGIT_CODES = new Set(
  '20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98'.split(
    ' ',
  ),
);
const callingCodeLength = (digits: string): number =>
  digits[0] === '1' || digits[0] === '7' ? 1 : TWO_DIGIT_CODES.has(digits.slice(0, 2)) ? 2 : 3;

/** `+1••••••••67`, `a•••@example.org`: the calling code and at most the last 2 digits, or the first character and the domain. */
export const mask = (address: string): string => {
  if (!address.startsWith('+')) return `${address[0]}•••${address.slice(address.indexOf('@'))}`;
  const digits = address.slice(1);
  const code = callingCodeLength(digits);
  const shown = Math.min(2, Math.max(0, digits.length - code - 1));
  return `+${digits.slice(0, code)}${'•'.repeat(digits.length - code - shown)}${shown ? digits.slice(-shown) : ''}`;
};

export class FactorEnrolment extends FactorServiceBase<EnrolmentStore> {
  private now(): number {
    return seconds(this.clock);
  }

  /**
   * Enrols a pending factor. A user with an active factor proves it first (the step-up, consumed);
   * a user with none enrolls with the API token alone.
   */
  async enroll(
    userId: string,
    req: EnrolRequest,
    stepUpId: string | undefined,
    log: SecurityLog,
    account = userId,
  ): Promise<EnrolledFactor> {
    const now = this.now();
    const address = addressOf(req);
    if (req.kind === 'sms' || req.kind === 'voice') assertDestination(address!, this.allowedCallingCodes());
    const devices = (await this.store.listDevices(userId)).filter((d) => live(d, now));
    if (devices.length >= MAX_FACTORS)
      throw new Conflict(`A user has at most ${MAX_FACTORS} factors; delete one first`);
    const why = 'Enrolling a factor when you have one needs a step-up';
    const stepUp: StepUp | undefined = devices.some(isActive)
      ? stepUpFor(userId, stepUpId, now, why)
      : undefined;
    const device: Device = {
      id: newDeviceId(this.clock.now()),
      userId,
      kind: req.kind,
      name: req.name ?? `${req.kind} factor`,
      default: false,
      created: now,
      last_used: null,
      address: address ?? null,
      sealedSecret: null,
      lastStep: null,
      status: 'pending_activation',
      pendingUntil: now + PENDING_TTL_SECONDS,
      activationHash: null,
      sealedChallenge: null,
      passkey: null,
      pushKey: null,
      pushEndpoint: null,
      ...(stepUp ? {} : { enrolledWithoutStepUp: true }),
    };
    let activation: Activation;
    let message: CodeMessage | undefined;
    let outbox: OutboxEntry | undefined;
    let ticket: PushTicket | undefined;
    const key = await this.secretKey();
    if (req.kind === 'otp') {
      const secret = this.totp.newSecret();
      device.sealedSecret = seal(secret, key);
      activation = { secret, otpauth_uri: this.totp.uri(secret, account) };
    } else if (req.kind === 'push') {
      const plain = `pt_${randomBytes(32).toString('base64url')}`;
      const expires_at = now + TICKET_TTL_SECONDS;
      ticket = { ticketHash: sha256(plain), userId, deviceId: device.id, expires_at };
      activation = { ticket: plain, expires_at };
    } else if (req.kind === 'device') {
      const exclude = devices.flatMap((d) => (d.passkey && isActive(d) ? [d.passkey] : []));
      const options = await passkeys.registrationOptions(
        this.passkeyConfig(),
        { id: userId, name: account },
        exclude,
      );
      device.sealedChallenge = seal(options.challenge, key);
      activation = { public_key: options };
    } else {
      // sms, voice, email: a code sent to the address, bound to this factor.
      const code = newCode();
      device.activationHash = hashCode(key, device.id, code);
      message = { device, verificationId: device.id, code, sent: now, expires_at: device.pendingUntil! };
      const entry = this.sender().stored(message);
      if (entry) outbox = { ...entry, code: seal(entry.code, key) };
      activation = { sent_to: mask(address!) };
    }
    // A code to send counts against the user's, the destination's and the stack's sends first,
    // given back when the enrolment is not stored (so nothing is sent).
    const channel = message ? channelOf(req.kind) : undefined;
    const sends = channel
      ? sendSlots({
          key,
          address: address!,
          channel,
          now,
          stackMax: this.stackSendLimit(),
          enrolment: { userId, hasActiveFactor: stepUp !== undefined },
        })
      : [];
    await limited(log, () => takeSends(this.store, sends, now), userId);
    try {
      await this.store.enrollDevice(device, { stepUp, outbox, ticket });
    } catch (err) {
      await releaseSends(this.store, sends);
      if (err instanceof StepUpRequired) throw stepUpRequired(why);
      throw err;
    }
    if (message) await this.sender().deliver(message);
    log('factor_enrolled', userId, { deviceId: device.id, kind: device.kind });
    return { ...presentDevice(device), activation };
  }

  /** Activates a pending otp, sms, voice, email or device factor with its proof. */
  async activate(
    userId: string,
    deviceId: string,
    proof: ActivationProof,
    log: SecurityLog,
    stepUpId?: string,
  ): Promise<ActivatedFactor> {
    const now = this.now();
    const device = DEVICE_ID.test(deviceId) ? await this.store.getDevice(userId, deviceId) : undefined;
    if (!device || !live(device, now)) throw new NotFound(`Factor ${deviceId} does not exist`);
    if (isActive(device)) throw new Conflict('The factor is already active');
    if (device.kind === 'push')
      throw new Conflict('A push factor is activated by the device app (POST /api/push/activations)');
    const field = device.kind === 'device' ? 'credential' : 'code';
    if ((field === 'code') !== (proof.code !== undefined))
      throw invalid(
        field,
        `A ${device.kind} factor is activated with ${field === 'code' ? 'a code' : 'a WebAuthn credential'}`,
      );

    // Enrolled while the user had no active factor: once another one is active, it takes a step-up.
    const why = 'Activating a factor enrolled before your first factor was active needs a step-up';
    const listed = await this.store.listDevices(userId);
    const others = listed.filter((d) => d.id !== device.id && isActive(d));
    const stepUp =
      device.enrolledWithoutStepUp && others.length ? stepUpFor(userId, stepUpId, now, why) : undefined;

    // Counted before the proof is checked; given back when it is right (as verification attempts).
    const attempt = limitSlot('activations', userId, deviceId, now);
    let left = 0;
    await limited(log, async () => {
      left = await this.store.takeLimitSlot(attempt, now);
    });
    const key = await this.secretKey();
    const changes: Partial<Device> = {};
    let valid = false;
    try {
      if (device.kind === 'device') {
        changes.passkey = await passkeys.verifyRegistration(
          this.passkeyConfig(),
          proof.credential,
          unseal(device.sealedChallenge!, key),
        );
        valid = true;
      } else if (device.kind === 'otp') {
        const step = await this.totp.verify(unseal(device.sealedSecret!, key), proof.code!, now);
        if (step !== undefined) changes.lastStep = step;
        valid = step !== undefined;
      } else valid = sameHash(device.activationHash!, hashCode(key, device.id, proof.code!));
    } catch (err) {
      if (!(err instanceof Invalid)) throw err;
      const reason = err.fields?.[0]?.message ?? err.message;
      if (device.kind === 'device')
        log('passkey_refused', userId, { deviceId, ceremony: 'registration', reason, attemptsLeft: left });
      else log('activation_refused', userId, { deviceId, kind: device.kind, reason, attemptsLeft: left });
      throw withAttemptsLeft(err, left);
    }
    if (!valid) {
      log('activation_refused', userId, { deviceId, kind: device.kind, attemptsLeft: left });
      throw new Invalid(`The ${field} is wrong`, {
        fields: [{ field, message: 'Wrong code' }],
        details: { attempts_left: left },
      });
    }
    const credentialId = changes.passkey?.credentialId;
    try {
      return await this.complete(
        device,
        changes,
        { now, release: attempt, stepUp, credentialId },
        log,
        true,
        listed,
      );
    } catch (err) {
      if (err instanceof StepUpRequired) throw stepUpRequired(why);
      throw err;
    }
  }

  /** The device app activates a push factor with its ticket and its EC P-256 public key. */
  async activatePush(
    req: PushActivation,
    log: SecurityLog,
  ): Promise<{ device_id: string; recovery_codes?: string[] }> {
    const key = parseDeviceKey(req.public_key);
    if (!TICKET.test(req.ticket)) throw invalid('ticket', 'Not a push activation ticket');
    const now = this.now();
    const ticketHash = sha256(req.ticket);
    const ticket = await this.store.getTicket(ticketHash);
    if (!ticket || ticket.expires_at <= now) throw new Gone('The ticket was used or expired; enrol again');
    const device = await this.store.getDevice(ticket.userId, ticket.deviceId);
    if (!device || !live(device, now) || isActive(device))
      throw new Gone('The ticket was used or expired; enrol again');
    // The step-up rule as on the user's route; the device app cannot carry a step-up, so refused.
    const listed = await this.store.listDevices(device.userId);
    if (device.enrolledWithoutStepUp && listed.some((d) => d.id !== device.id && isActive(d)))
      throw new Forbidden(
        'This push factor was enrolled before the first factor was active: enrol it again (with a step-up)',
      );
    const changes: Partial<Device> = { pushKey: key, ...(req.name ? { name: req.name } : {}) };
    if (req.push_token) {
      const endpoint = await this.notifier().register(req.push_token, device.id);
      if (endpoint) changes.pushEndpoint = endpoint;
    }
    // The device app is answered its id only: recovery codes are the user's (a user whose first
    // factor is push gets them from POST /api/users/:id/recovery_codes, stepping up on the device).
    const done = await this.complete(
      device,
      changes,
      { now, ticketHash, push: { deviceId: device.id, userId: device.userId, key } },
      log,
      false,
      listed,
    );
    return { device_id: done.id };
  }

  /** New recovery codes (step-up); the old ones stop working. Shown once. */
  async replaceRecoveryCodes(userId: string, stepUpId: string | undefined, log: SecurityLog) {
    const why = 'Replacing recovery codes needs a step-up';
    const stepUp = stepUpFor(userId, stepUpId, this.now(), why);
    const codes = newRecoveryCodes();
    try {
      await this.store.replaceRecoveryCodes(userId, codes.map(recoveryHash), stepUp);
    } catch (err) {
      if (err instanceof StepUpRequired) throw stepUpRequired(why);
      throw err;
    }
    log('recovery_codes_replaced', userId);
    return { recovery_codes: codes };
  }

  private async complete(
    device: Device,
    changes: Partial<Device>,
    opts: Parameters<EnrolmentStore['activateDevice']>[2],
    log: SecurityLog,
    issueRecovery: boolean,
    listed: Device[],
  ): Promise<ActivatedFactor> {
    const others = listed.filter((d) => d.id !== device.id && isActive(d));
    changes.default = others.length === 0;
    // The user's first activation discards every other pending factor enrolled without a step-up
    // (in its transaction): only what is enrolled with a step-up of the first factor may follow it.
    const discard =
      others.length === 0
        ? listed.filter((d) => d.id !== device.id && d.enrolledWithoutStepUp && live(d, opts.now))
        : [];
    // The first factor a user activates brings the recovery codes (unless the user has some).
    const first = issueRecovery && others.length === 0 && !(await this.store.hasRecoveryCodes(device.userId));
    const codes = first ? newRecoveryCodes() : undefined;
    try {
      await this.store.activateDevice(device, changes, {
        ...opts,
        recoveryHashes: codes?.map(recoveryHash),
        ...(discard.length ? { discard } : {}),
      });
    } catch (err) {
      if (isConflict(err, 'token')) throw new Gone('The ticket was used or expired; enrol again');
      if (isConflict(err, 'state')) throw new Conflict('The factor was activated or expired meanwhile');
      if (isConflict(err, 'credential')) {
        log('passkey_refused', device.userId, {
          deviceId: device.id,
          ceremony: 'registration',
          reason: 'credential_registered',
        });
        throw new Conflict('This passkey is registered already (to this or another factor): use another one');
      }
      throw err;
    }
    log('factor_activated', device.userId, { deviceId: device.id, kind: device.kind });
    const active: Device = { ...device, ...changes, status: 'active' };
    return { ...presentDevice(active), ...(codes ? { recovery_codes: codes } : {}) };
  }
}

function addressOf(req: EnrolRequest): string | undefined {
  if (req.kind === 'sms' || req.kind === 'voice') {
    if (!(req.phone_number && PHONE.test(req.phone_number)))
      throw invalid('phone_number', `A ${req.kind} factor needs an E.164 phone number (+15551234567)`);
    return req.phone_number;
  }
  if (req.kind === 'email') {
    if (!(req.email && EMAIL.test(req.email) && req.email.length <= 254))
      throw invalid('email', 'An email factor needs an email address');
    return req.email;
  }
  return undefined;
}

function withAttemptsLeft(err: Invalid, left: number): Invalid {
  return new Invalid(err.message, { fields: err.fields, details: { attempts_left: left } });
}

export type { StoredPasskey };
