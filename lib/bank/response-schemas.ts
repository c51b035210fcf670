// Response schemas of the Bank API: infra/openapi/bank.ts generates openapi/bank.json from them (and
// the tests check responses against it). No function imports this module, so no cold start builds them.
// Never parsed at runtime, so valibot's own strictObject (documented `additionalProperties: false`).
import * as v from 'valibot';
import { DEVICE_ID, TRANSFER_ID } from './ids.ts';
import { FACTOR_KINDS } from './model.ts';

/** A string constant; documented with its type beside `const` (some generators need the type). */
const constant = <const T extends string>(value: T) =>
  v.pipe(v.literal(value), v.metadata({ type: 'string' }));
const int = () => v.pipe(v.number(), v.integer());
const unixSeconds = () => v.pipe(v.number(), v.integer(), v.description('Unix seconds'));

export const transferSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(TRANSFER_ID)),
  amount: int(),
  currency: v.string(),
  destination: v.string(),
  description: v.nullable(v.string()),
  metadata: v.record(v.string(), v.string()),
  created: unixSeconds(),
  updated: unixSeconds(),
});

export const transferListSchema = v.strictObject({
  object: constant('list'),
  data: v.array(transferSchema),
  has_more: v.boolean(),
});

const deviceEntries = {
  id: v.pipe(v.string(), v.regex(DEVICE_ID)),
  kind: v.picklist(FACTOR_KINDS),
  name: v.string(),
  default: v.pipe(v.boolean(), v.description('The first active factor; a pending one never is')),
  created: int(),
  last_used: v.nullable(int()),
  status: v.pipe(
    v.picklist(['pending_activation', 'active']),
    v.description(
      'Only active factors verify, step up or are default; a pending one is gone after 10 minutes',
    ),
  ),
};
export const deviceSchema = v.strictObject(deviceEntries);

/** WebAuthn Level 3 JSON options (PublicKeyCredentialCreationOptionsJSON / ...RequestOptionsJSON). */
const webauthnOptions = (what: string) =>
  v.pipe(v.looseObject({ challenge: v.string() }), v.description(what));
const recoveryCodes = v.pipe(
  v.array(v.string()),
  v.description('Ten single-use recovery codes, shown once (the first factor a user activates)'),
);

export const enrolledSchema = v.strictObject({
  ...deviceEntries,
  activation: v.pipe(
    v.union([
      v.strictObject({ secret: v.string(), otpauth_uri: v.string() }),
      v.strictObject({ sent_to: v.pipe(v.string(), v.description('The masked address the code went to')) }),
      v.strictObject({ ticket: v.string(), expires_at: unixSeconds() }),
      v.strictObject({
        public_key: webauthnOptions(
          'PublicKeyCredentialCreationOptionsJSON for navigator.credentials.create',
        ),
      }),
    ]),
    v.description('Shown once: otp secret, where the code was sent, the push ticket, or passkey options'),
  ),
});

export const activatedSchema = v.strictObject({
  ...deviceEntries,
  recovery_codes: v.optional(recoveryCodes),
});

export const pushActivatedSchema = v.strictObject({ device_id: v.pipe(v.string(), v.regex(DEVICE_ID)) });

export const recoveryCodesSchema = v.strictObject({ recovery_codes: recoveryCodes });

export const pushChallengeSchema = v.strictObject({
  id: v.string(),
  created: unixSeconds(),
  expires_at: unixSeconds(),
  context: v.strictObject({ action: constant('verification'), user_id: v.string(), factor_id: v.string() }),
});

export const decisionSchema = v.strictObject({ id: v.string(), status: v.picklist(['approved', 'denied']) });

export const verificationSchema = v.strictObject({
  id: v.string(),
  device_id: v.string(),
  status: v.picklist(['pending', 'approved', 'denied', 'expired', 'max_attempts_reached']),
  expires_at: unixSeconds(),
  number: v.optional(
    v.pipe(int(), v.description('push: the number to show the user, who types it on the device (10-99)')),
  ),
  public_key: v.optional(
    webauthnOptions('device: PublicKeyCredentialRequestOptionsJSON for navigator.credentials.get'),
  ),
});

export const approvedSchema = v.strictObject({ id: v.string(), status: constant('approved') });

export const mfaTokenSchema = v.strictObject({
  mfa_token: v.string(),
  expires_at: int(),
  reusable: v.boolean(),
});
