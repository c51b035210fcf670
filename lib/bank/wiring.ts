// The one place the Bank's adapters are chosen and handed to its domain. Nothing is built before
// first use, and each operation has its own getter, wired with only the adapter methods it calls
// (lib/domain/only.ts), so a function bundles only those (and their AWS clients and commands): only
// StartVerification reaches the SNS/SES sender, only Verify (and the admin CLI, which enrols
// factors) the TOTP library, and only the operations that hash, seal or open a code or a secret the
// MFA key. Each getter is named for what its handler does with it; the `full…()` ones have every
// method: the admin CLI, the bench and tests only (docs/architecture.md, "Bundles").
import { config } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { mfaEncryptionKey } from '../data/secrets.ts';
import { once } from '../domain/once.ts';
import { only } from '../domain/only.ts';
import { users } from '../identity/wiring.ts';
import { BankAccess } from './access.ts';
import { awsCodeSender } from './adapters/aws-code-sender.ts';
import {
  approve,
  createVerification,
  deleteDevice,
  DynamoFactorStore,
  getDevice,
  getVerification,
  listDevices,
  putMfaToken,
  recordFailure,
  releaseLimitSlot,
  takeLimitSlot,
} from './adapters/dynamo-factors.ts';
import { DynamoIdempotencyStore } from './adapters/dynamo-idempotency.ts';
import {
  DynamoTransferStore,
  getTransfer,
  listTransfers,
  putTransfer,
  saveTransfer,
} from './adapters/dynamo-transfers.ts';
import { outboxSender } from './adapters/outbox-sender.ts';
import { parseCallingCodes } from './destinations.ts';
import { IdempotencyKeys } from './idempotency.ts';
import { MfaService } from './mfa.ts';
import type { CodeSender, FactorStore, Totp, TransferStore } from './ports.ts';
import { otplibTotp } from './totp.ts';
import {
  DynamoEnrolmentStore,
  activateDevice,
  enrollDevice,
  getTicket,
  hasRecoveryCodes,
  replaceRecoveryCodes,
} from './adapters/dynamo-enrolment.ts';
import { currentPush, decide, getPushDevice, replayed } from './adapters/dynamo-push.ts';
import { limitReached } from './adapters/dynamo-limits.ts';
import { SourceLimits } from './source-limit.ts';
import { snsNotify, snsRegister } from './adapters/sns-push-notifier.ts';
import { FactorEnrolment } from './enrolment.ts';
import type { PasskeyConfig } from './passkeys.ts';
import type { EnrolmentStore, LimitStore, PushNotifier, PushStore } from './ports.ts';
import { PushService } from './push.ts';
import { TransferService } from './transfers.ts';

/** Every method: the admin CLI, the bench and tests. */
export const fullTransfers = /* @__PURE__ */ once(
  () => new TransferService(new DynamoTransferStore(), () => config.transferStepUpAmount, systemClock),
);

const wiredTransfers = (store: Partial<TransferStore>) =>
  new TransferService(
    only<TransferStore>('transfers', store),
    () => config.transferStepUpAmount,
    systemClock,
  );
/** GET one transfer: the store's getTransfer only (lib/domain/only.ts). */
export const transferLookup = /* @__PURE__ */ once(() => wiredTransfers({ getTransfer }));
/** GET the list: the store's listTransfers only. */
export const transferLister = /* @__PURE__ */ once(() => wiredTransfers({ listTransfers }));
/** POST /api/transfers: one putTransfer (its transaction consumes the step-up, completes the key). */
export const transferCreator = /* @__PURE__ */ once(() => wiredTransfers({ putTransfer }));
/** PUT and POST /api/transfers/{id}: read the transfer, save its next version (retried on a conflict). */
export const transferUpdater = /* @__PURE__ */ once(() => wiredTransfers({ getTransfer, saveTransfer }));

/** The RP passkeys are bound to (template parameters PasskeyRpId, PasskeyOrigins). */
const passkeyConfig = (): PasskeyConfig => ({
  rpId: config.passkeyRpId,
  rpName: 'tri-api bank',
  origins: config.passkeyOrigins,
});
/** Template parameter SmsVoiceAllowedCallingCodes (lib/bank/destinations.ts). */
const allowedCallingCodes = () => parseCallingCodes(config.smsVoiceAllowedCallingCodes);
/** Template parameter SmsVoiceHourlyLimit (lib/bank/sends.ts). */
const stackSendLimit = () => config.smsVoiceHourlyLimit;
const codeSender = () => (config.codeSender === 'aws' ? awsCodeSender : outboxSender);
/** The MFA service; what `opts` leaves out (the MFA key, TOTP, the push notifier) is unwired (lib/domain/only.ts). */
const build = (
  store: FactorStore,
  sender: () => CodeSender,
  opts: { totp?: Totp; key?: () => Promise<string>; notifier?: Partial<PushNotifier> } = {},
) =>
  new MfaService({
    store,
    sender,
    clock: systemClock,
    secretKey: opts.key,
    totp: opts.totp,
    passkeyConfig,
    notifier: notifierOf(opts.notifier),
    allowedCallingCodes,
    stackSendLimit,
  });
const notifierOf = (methods?: Partial<PushNotifier>) => {
  if (!methods) return undefined;
  const notifier = only<PushNotifier>('pushNotifier', methods);
  return () => notifier;
};
const enrolments = (
  methods: Partial<EnrolmentStore>,
  opts: {
    totp?: Totp;
    sender?: () => CodeSender;
    notifier?: Partial<PushNotifier>;
    key?: () => Promise<string>;
  } = {},
) =>
  new FactorEnrolment({
    store: only<EnrolmentStore>('enrolment', methods),
    sender: opts.sender ?? (() => outboxSender),
    clock: systemClock,
    secretKey: opts.key,
    totp: opts.totp,
    passkeyConfig,
    notifier: notifierOf(opts.notifier),
    allowedCallingCodes,
    stackSendLimit,
  });
const factors = (methods: Partial<FactorStore>) => only<FactorStore>('factors', methods);

/** Every method; codes go to the outbox; no TOTP (admin CLI: listing, outbox; tests). */
export const fullMfa = /* @__PURE__ */ once(() =>
  build(new DynamoFactorStore(), () => outboxSender, { key: mfaEncryptionKey }),
);

/** The same with TOTP: enrolling otp factors (admin CLI, seed, tests). */
export const fullMfaWithTotp = /* @__PURE__ */ once(() =>
  build(new DynamoFactorStore(), () => outboxSender, { totp: otplibTotp, key: mfaEncryptionKey }),
);

/** GET /api/users/{id}/devices: one Query of the user's factors. */
export const deviceLister = /* @__PURE__ */ once(() => build(factors({ listDevices }), () => outboxSender));

/** DELETE a factor: one transaction (the step-up consumed, the factor deleted). */
export const deviceRemover = /* @__PURE__ */ once(() => build(factors({ deleteDevice }), () => outboxSender));

/**
 * Starting a verification: the factor, a code's destination and stack sends counted, then the
 * verification (with the starts limit and the outbox entry) in one transaction; codes through End User Messaging / SES when CODE_SENDER is 'aws', else
 * to the outbox; a push notified through SNS when the stack has a platform application.
 */
export const verificationStarter = /* @__PURE__ */ once(() =>
  build(factors({ getDevice, createVerification, takeLimitSlot, releaseLimitSlot }), codeSender, {
    key: mfaEncryptionKey,
    notifier: { notify: snsNotify },
  }),
);

/** POST /api/users/{id}/devices: the user's factors, a code's sends counted, then the pending factor (with its step-up, code, ticket). */
export const deviceEnroller = /* @__PURE__ */ once(() =>
  enrolments(
    { listDevices, getDevice, enrollDevice, takeLimitSlot, releaseLimitSlot },
    {
      totp: otplibTotp,
      sender: codeSender,
      key: mfaEncryptionKey,
    },
  ),
);

/** POST .../devices/{id}/activate: the factor, the attempt counted, then its activation. */
export const deviceActivator = /* @__PURE__ */ once(() =>
  enrolments(
    { getDevice, listDevices, takeLimitSlot, activateDevice, hasRecoveryCodes },
    {
      totp: otplibTotp,
      key: mfaEncryptionKey,
    },
  ),
);

/** POST /api/push/activations: the ticket, the factor, then its activation (and its SNS endpoint). */
export const pushActivator = /* @__PURE__ */ once(() =>
  enrolments(
    { getTicket, getDevice, listDevices, activateDevice, hasRecoveryCodes },
    {
      notifier: { register: snsRegister },
    },
  ),
);

/** POST /api/users/{id}/recovery_codes: one transaction (the step-up consumed, the codes replaced). */
export const recoveryCodeReplacer = /* @__PURE__ */ once(() => enrolments({ replaceRecoveryCodes }));

const pushService = (methods: Partial<PushStore>, secretKey?: () => Promise<string>) =>
  new PushService({
    pushes: only<PushStore>('push', methods),
    factors: factors({ getVerification }),
    clock: systemClock,
    secretKey,
  });

/** GET /api/push/challenges: the device's key, the user's pending push pointer and verification. */
export const pushChallenges = /* @__PURE__ */ once(() => pushService({ getPushDevice, currentPush }));

/** POST /api/push/challenges/{id}: as listing, the replay check, then one transaction deciding it. */
export const pushChallengeAnswerer = /* @__PURE__ */ once(() =>
  pushService({ getPushDevice, currentPush, replayed, decide }, mfaEncryptionKey),
);

/** GET a verification: the verification (and for a push the user's pending pointer). */
export const verificationReader = /* @__PURE__ */ once(() => pushService({ currentPush }));

/** Every method: the admin CLI, the bench and tests. */
export const fullEnrolment = /* @__PURE__ */ once(
  () =>
    new FactorEnrolment({
      store: new DynamoEnrolmentStore(),
      sender: () => outboxSender,
      clock: systemClock,
      secretKey: mfaEncryptionKey,
      totp: otplibTotp,
      passkeyConfig,
      allowedCallingCodes,
      stackSendLimit,
    }),
);

/** Checking a code, TOTP or mfa_token: read, count the attempt, then approve or record the failure. */
export const verifier = /* @__PURE__ */ once(() =>
  build(factors({ getVerification, takeLimitSlot, recordFailure, approve }), () => outboxSender, {
    totp: otplibTotp,
    key: mfaEncryptionKey,
  }),
);

/** Issuing a recovery mfa_token: one transaction. */
export const mfaTokenIssuer = /* @__PURE__ */ once(() => build(factors({ putMfaToken }), () => outboxSender));

export const idempotencyKeys = /* @__PURE__ */ once(
  () => new IdempotencyKeys(new DynamoIdempotencyStore(), systemClock),
);

/** The routes without an API token: a source address's refused requests (one read, one count per refusal). */
export const sourceLimits = /* @__PURE__ */ once(
  () => new SourceLimits(only<LimitStore>('limits', { takeLimitSlot, limitReached }), systemClock),
);

/** Self-or-admin checks, answered by the identity directory. */
export const access = /* @__PURE__ */ once(
  () =>
    new BankAccess({
      isAdmin: async (userId) => (await users().getUser(userId))?.roles.includes('admin') ?? false,
    }),
);

/** The stack's code sends refused, as the metric BankCodeSendsRefusedAlarm watches (embedded metric format). */
export { emitSendsRefused } from './adapters/emf-metrics.ts';

/** The key that seals secrets at rest (MFA_ENCRYPTION_KEY), for stored answers that carry one. */
export const sealingKey = mfaEncryptionKey;
