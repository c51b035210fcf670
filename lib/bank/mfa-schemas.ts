// Request bodies of the Bank's MFA routes (verifications, mfa_token), valibot (lib/domain/schema.ts);
// paths are in params.ts.
import * as v from 'valibot';
import { strictObject } from '../domain/schema.ts';
import { DEVICE_ID } from './ids.ts';
import { int } from '../domain/schema-numbers.ts';
import { MFA_TOKEN_MAX_SECONDS } from './model.ts';

export const startVerificationBody = strictObject({
  device_id: v.pipe(v.string(), v.regex(DEVICE_ID, 'Must be a device id')),
});

/** Exactly one of code and mfa_token (both or neither names each, as long as both are strings). */
export const verifyBody = v.pipe(
  strictObject({
    code: v.optional(v.pipe(v.string(), v.regex(/^\d{6}$/, 'Must be 6 digits'))),
    mfa_token: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const body = dataset.value;
    if ((body.code === undefined) === (body.mfa_token === undefined))
      for (const key of ['code', 'mfa_token'] as const)
        addIssue({
          message: 'Send exactly one of code and mfa_token',
          path: [{ type: 'object', origin: 'value', input: body, key, value: body[key] }],
        });
  }),
);

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
