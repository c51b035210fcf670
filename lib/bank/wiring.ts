// The one place the Bank's adapters are chosen and handed to its domain. Nothing is built before
// first use, and each service has its own getter, so a function bundles only the adapters (and AWS
// clients) of the services it calls: only StartVerification reaches the SNS/SES sender, and only
// Verify (and the admin CLI, which enrols factors) the TOTP library.
import { config } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { mfaEncryptionKey } from '../data/secrets.ts';
import { once } from '../domain/once.ts';
import { only } from '../domain/only.ts';
import { users } from '../identity/wiring.ts';
import { BankAccess } from './access.ts';
import { awsCodeSender } from './adapters/aws-code-sender.ts';
import { DynamoFactorStore } from './adapters/dynamo-factors.ts';
import { DynamoIdempotencyStore } from './adapters/dynamo-idempotency.ts';
import { DynamoTransferStore, getTransfer, listTransfers } from './adapters/dynamo-transfers.ts';
import { outboxSender } from './adapters/outbox-sender.ts';
import { IdempotencyKeys } from './idempotency.ts';
import { MfaService } from './mfa.ts';
import type { CodeSender, Totp, TransferStore } from './ports.ts';
import { otplibTotp } from './totp.ts';
import { TransferService } from './transfers.ts';

export const transfers = /* @__PURE__ */ once(
  () => new TransferService(new DynamoTransferStore(), () => config.transferStepUpAmount, systemClock),
);

const reading = (store: Partial<TransferStore>) =>
  new TransferService(
    only<TransferStore>('transfers', store),
    () => config.transferStepUpAmount,
    systemClock,
  );
/** GET one transfer: the store's getTransfer only (lib/domain/only.ts). */
export const transferLookup = /* @__PURE__ */ once(() => reading({ getTransfer }));
/** GET the list: the store's listTransfers only. */
export const transferListing = /* @__PURE__ */ once(() => reading({ listTransfers }));

const noTotp: Totp = {
  newSecret: () => {
    throw new Error('this function has no TOTP library');
  },
  uri: () => {
    throw new Error('this function has no TOTP library');
  },
  verify: () => Promise.reject(new Error('this function has no TOTP library')),
};
const build = (sender: () => CodeSender, totp: Totp) =>
  new MfaService(new DynamoFactorStore(), sender, systemClock, mfaEncryptionKey, totp);

/** Factors, verifications and mfa_tokens; codes go to the outbox; no TOTP (listing, deleting, tokens). */
export const mfa = /* @__PURE__ */ once(() => build(() => outboxSender, noTotp));

/** The same with TOTP: checking codes (Verify) and enrolling otp factors (admin CLI). */
export const mfaWithTotp = /* @__PURE__ */ once(() => build(() => outboxSender, otplibTotp));

/** Delivering codes through SNS/SES when CODE_SENDER is 'aws' (StartVerification). */
export const verifications = /* @__PURE__ */ once(() =>
  build(() => (config.codeSender === 'aws' ? awsCodeSender : outboxSender), noTotp),
);

export const idempotencyKeys = /* @__PURE__ */ once(
  () => new IdempotencyKeys(new DynamoIdempotencyStore(), systemClock),
);

/** Self-or-admin checks, answered by the identity directory. */
export const access = /* @__PURE__ */ once(
  () =>
    new BankAccess({
      isAdmin: async (userId) => (await users().getUser(userId))?.roles.includes('admin') ?? false,
    }),
);

/** The key that seals secrets at rest (MFA_ENCRYPTION_KEY), for stored answers that carry one. */
export const sealingKey = mfaEncryptionKey;
