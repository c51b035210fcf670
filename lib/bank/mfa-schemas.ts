// Request bodies of the Bank's MFA routes (enrolment, activation, push, verifications, mfa_token), valibot (lib/domain/schema.ts);
// paths are in params.ts.
import * as v from 'valibot';
import { strictObject } from '../domain/schema.ts';
import { DEVICE_ID } from './ids.ts';
import { int } from '../domain/schema-numbers.ts';
import { FACTOR_KINDS, MFA_TOKEN_MAX_SECONDS } from './model.ts';
import { authenticationResponseSchema, registrationResponseSchema } from './passkeys.ts';
import { deviceKeySchema } from './push-keys.ts';

export const startVerificationBody = strictObject({
  device_id: v.pipe(v.string(), v.regex(DEVICE_ID, 'Must be a device id')),
});

/** Exactly one of the members named (both or neither names each, as long as all are well-formed). */
const exactlyOne = <T extends object>(keys: readonly (keyof T & string)[]) =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const body = dataset.value as Record<string, unknown>;
    const given = keys.filter((k) => body[k] !== undefined);
    if (given.length !== 1)
      for (const key of given.length ? given : keys)
        addIssue({
          message: `Send exactly one of ${keys.join(', ')}`,
          path: [{ type: 'object', origin: 'value', input: body, key, value: body[key] }],
        });
  });

const code = v.pipe(v.string(), v.regex(/^\d{6}$/, 'Must be 6 digits'));

/** A code, an mfa_token, a recovery code, or a passkey's assertion: exactly one. */
const verifyFields = strictObject({
  code: v.optional(code),
  mfa_token: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  recovery_code: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}$/, 'Must be a recovery code (xxxx-xxxx-xxxx)'),
    ),
  ),
  credential: v.optional(
    v.pipe(authenticationResponseSchema, v.description('AuthenticationResponseJSON (a device factor)')),
  ),
});
export const verifyBody = v.pipe(
  verifyFields,
  exactlyOne<v.InferOutput<typeof verifyFields>>(['code', 'mfa_token', 'recovery_code', 'credential']),
);

export const enrollBody = strictObject({
  kind: v.picklist(FACTOR_KINDS),
  name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))),
  phone_number: v.optional(
    v.pipe(v.string(), v.regex(/^\+[1-9]\d{6,14}$/, 'Must be an E.164 phone number (+15551234567)')),
  ),
  email: v.optional(v.pipe(v.string(), v.maxLength(254), v.email('Must be an email address'))),
});

/** A code (otp, sms, voice, email) or a WebAuthn registration (device): exactly one. */
const activateFields = strictObject({
  code: v.optional(code),
  credential: v.optional(
    v.pipe(registrationResponseSchema, v.description('RegistrationResponseJSON (a device factor)')),
  ),
});
export const activateBody = v.pipe(
  activateFields,
  exactlyOne<v.InferOutput<typeof activateFields>>(['code', 'credential']),
);

export const pushActivationBody = strictObject({
  ticket: v.pipe(v.string(), v.regex(/^pt_[A-Za-z0-9_-]{43}$/, 'Must be a push activation ticket')),
  // Loose: a private key's `d` must reach parseDeviceKey, which refuses it (never strip it silently).
  public_key: v.pipe(
    v.looseObject(deviceKeySchema.entries),
    v.description("The device app's EC P-256 public key (JWK, no private part)"),
  ),
  name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))),
  push_token: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(4096))),
});

export const pushAnswerBody = strictObject({
  response: v.pipe(
    v.string(),
    v.maxLength(4096),
    v.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'Must be a compact JWS'),
    v.description('Compact JWS (ES256, kid = the device id) of {sub, iat, exp, decision, number}'),
  ),
});

/** Optional: no body means the defaults. */
export const mfaTokenBody = v.optional(
  strictObject({
    expires_in: v.optional(
      v.pipe(
        int(),
        v.minValue(1),
        v.maxValue(MFA_TOKEN_MAX_SECONDS),
        v.description(`Seconds, default and maximum ${MFA_TOKEN_MAX_SECONDS}`),
      ),
    ),
    reusable: v.optional(v.pipe(v.boolean(), v.description('Default false: the token works once'))),
  }),
);
