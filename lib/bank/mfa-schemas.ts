// Request bodies of the Bank's MFA routes (verifications, mfa_token); paths are in params.ts.
import * as z from 'zod/mini';
import { DEVICE_ID } from './ids.ts';
import { MFA_TOKEN_MAX_SECONDS } from './model.ts';

export const startVerificationBody = z.strictObject({
  device_id: z.string().check(z.regex(DEVICE_ID, 'Must be a device id')),
});

export const verifyBody = z
  .strictObject({
    code: z.optional(z.string().check(z.regex(/^\d{6}$/, 'Must be 6 digits'))),
    mfa_token: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  })
  .check(
    z.superRefine((v, ctx) => {
      if ((v.code === undefined) === (v.mfa_token === undefined)) {
        for (const field of ['code', 'mfa_token'])
          ctx.addIssue({ code: 'custom', path: [field], message: 'Send exactly one of code and mfa_token' });
      }
    }),
  );

/** Optional: no body means the defaults. */
export const mfaTokenBody = z.optional(
  z.strictObject({
    expires_in: z
      .optional(z.number().check(z.int(), z.gte(1), z.lte(MFA_TOKEN_MAX_SECONDS)))
      .check(z.describe(`Seconds, default and maximum ${MFA_TOKEN_MAX_SECONDS}`)),
    reusable: z.optional(z.boolean()).check(z.describe('Default false: the token works once')),
  }),
);
