// OpenAPI 3.1 document of the Bank API (the Bank interface document + docs/bank.md), generated from the valibot schemas
// that validate requests (lib/bank/params.ts, schemas.ts, mfa-schemas.ts) and describe responses (lib/bank/response-schemas.ts).
import type * as v from 'valibot';
import { ERRORS, type ErrorType } from '../../lib/http/errors.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../lib/bank/idempotency.ts';
import { MFA_LIMITS } from '../../lib/bank/limits.ts';
import { MAX_ATTEMPTS, MFA_TOKEN_MAX_SECONDS } from '../../lib/bank/model.ts';
import * as mfa from '../../lib/bank/mfa-schemas.ts';
import * as params from '../../lib/bank/params.ts';
import * as r from '../../lib/bank/response-schemas.ts';
import * as s from '../../lib/bank/schemas.ts';
import { document, inputSchema, json, schema } from './build.ts';
import { errorCodeSchema, restErrorResponse } from './rest-errors.ts';
import { BANK_ROUTES } from '../../functions/bank/routes.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The Bank tags; the document lists those its operations use. */
const TAGS = {
  Transfers: "The caller's wire transfers",
  Devices: "A user's enrolled factors (the caller's own, or any user's for an admin)",
  Verifications: 'Verifying a factor: start, then check the code (step-up and recovery)',
  'MFA tokens': 'Recovery tokens issued by an admin',
  'Recovery codes': "The user's own single-use recovery codes",
  'Push device': 'The device app of a push factor: activation with a ticket, challenges, signed decisions',
} as const;

type Described = Partial<Record<ErrorType, string>>;
const COMMON: Described = {
  bad_request: 'Invalid path/query parameter or Idempotency-Key header (named in errors[])',
  unauthorized: 'Missing, malformed, unknown or revoked token (WWW-Authenticate: Bearer)',
  idempotency_error: 'Idempotency-Key used for a different request, or its first request is still in flight',
  unsupported_media_type: 'The request content type is not application/json',
  validation_failed: 'Malformed JSON or invalid/unknown body fields (each named in errors[])',
  internal_error: 'Unexpected server failure',
  service_unavailable:
    'A dependency did not answer in time or throttled: retry after Retry-After seconds (with the same Idempotency-Key)',
};
const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'string' } },
};
const errors = (specific: Described, ...common: ErrorType[]) => {
  const described: Described = {
    ...Object.fromEntries(common.map((t) => [t, COMMON[t]])),
    ...specific,
    unauthorized: COMMON.unauthorized,
    internal_error: COMMON.internal_error,
    service_unavailable: specific.service_unavailable ?? COMMON.service_unavailable,
  };
  return Object.fromEntries(
    Object.entries(described).map(([t, d]) => [
      String(ERRORS[t as ErrorType].status),
      restErrorResponse(
        t as ErrorType,
        d!,
        t === 'service_unavailable' || t === 'too_many_requests' ? retryAfter : undefined,
      ),
    ]),
  );
};

const pathParams = (p: v.GenericSchema) =>
  Object.entries(inputSchema(p).properties as Record<string, unknown>).map(([name, sch]) => ({
    name,
    in: 'path',
    required: true,
    schema: sch,
  }));
const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description,
});
const hour = (name: 'enrolmentSends' | 'enrolmentSendsWithFactor' | 'destinationSends') =>
  `${MFA_LIMITS[name].max} per ${MFA_LIMITS[name].windowSeconds / 3_600} hour`;
/** The send limits of a code (docs/bank.md, "Abuse limits"). */
const sendLimits = {
  destination:
    `more than ${hour('destinationSends')} codes to this number or address across all users ` +
    '(Retry-After; a code_send_limited security event)',
  stack:
    `${COMMON.service_unavailable}; or the stack sent SMS_VOICE_HOURLY_LIMIT (SmsVoiceHourlyLimit, default ` +
    `${MFA_LIMITS.stackSends.max}) sms and voice codes this hour, or as many e-mails: no code is sent to anyone until Retry-After`,
};
const idempotencyKey = header(
  'Idempotency-Key',
  `At most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters. The first successful response is stored for ` +
    `24 hours and replayed (Idempotent-Replayed: true) for the same key and body; another body or a ` +
    `request in flight is 409. Keys are per caller; a failed request releases its key.`,
);
const stepUp = header(
  'X-MFA-Verification',
  'Step-up: id of an approved, unused verification of the user from the last 5 minutes; consumed by the call',
);
const body = (sch: v.GenericSchema, required = true) => ({
  required,
  content: { 'application/json': { schema: inputSchema(sch) } },
});
const validators = {
  ETag: { description: 'Strong entity tag of the representation', schema: { type: 'string' } },
  'Last-Modified': { description: '`updated` as an HTTP date', schema: { type: 'string' } },
};
const replayed = {
  'Idempotent-Replayed': { description: '"true" when the response is a replay', schema: { type: 'string' } },
};
const withHeaders = (response: Record<string, unknown>, headers: Record<string, unknown>) => ({
  ...response,
  headers,
});

/** Each listing parameter, its description beside its schema (as Swagger UI shows it). */
const listParams = Object.entries(s.listTransfersQuery.entries).map(([name, sch]) => {
  const described = inputSchema(sch);
  return {
    name,
    in: 'query',
    required: false,
    schema: described,
    ...(described.description ? { description: described.description } : {}),
  };
});

const transfer = pathParams(params.transferPath);
const user = pathParams(params.userPath);
const device = pathParams(params.devicePath);
const verification = pathParams(params.verificationPath);
const challenge = pathParams(params.challengePath);
/** The routes without an API token: refused requests limited per source address (docs/bank.md, "Abuse limits"). */
const sourceLimit =
  `This address had ${MFA_LIMITS.sourceRefusals.max} requests refused (any 4xx) on the routes without an API token ` +
  `in ${MFA_LIMITS.sourceRefusals.windowSeconds / 60} minute: every request of it is refused until Retry-After`;
const deviceJwt = {
  unauthorized:
    'Missing, malformed or expired device JWT, an unknown device, or a bad signature (ES256, kid = sub = the device id, exp at most 5 minutes ahead)',
  too_many_requests: sourceLimit,
};
const missingTransfer: Described = {
  not_found: "No such transfer of the caller (also for another user's transfer)",
};
const notSelf: Described = { forbidden: 'The caller is neither this user nor an admin' };

/** OpenAPI 3.1 document of the Bank API. */
export const buildBankDocument = () =>
  document({
    title: 'Bank API (transfers and multi-factor authentication)',
    version: '1.0.0',
    description: [
      'The Bank interface document with the decisions recorded in docs/bank.md. Every operation needs `Authorization: Bearer <token>`.',
      'Times are unix seconds. Amounts are integer minor units. Errors: {code, message, description, errors?: [{field, message}]}.',
      'A caller acts on /api/users/{userId}/... only for themself unless they have the admin role. Decisions and costs: docs/bank.md.',
    ].join('\n'),
    security: true,
    tags: TAGS,
    routes: BANK_ROUTES.rows,
    paths: {
      '/api/transfers': {
        post: {
          description:
            'Amount in integer minor units, an ISO 4217 currency, a destination, optional description and ' +
            'metadata. At or above TRANSFER_STEP_UP_AMOUNT it needs an approved X-MFA-Verification. Send an ' +
            'Idempotency-Key to make a retry safe.',
          parameters: [idempotencyKey, stepUp],
          requestBody: body(s.createTransferBody),
          responses: {
            201: withHeaders(json(ref('Transfer'), 'The transfer (or the replayed first response)'), {
              Location: { description: '/api/transfers/{id}', schema: { type: 'string' } },
              ...replayed,
            }),
            ...errors(
              {
                step_up_required:
                  'amount at or above TRANSFER_STEP_UP_AMOUNT without a valid X-MFA-Verification',
              },
              'bad_request',
              'idempotency_error',
              'unsupported_media_type',
              'validation_failed',
            ),
          },
        },
        get: {
          description:
            'Cursor pages (starting_after / ending_before, limit 1..100) in created or amount order, ' +
            'filtered by currency, destination, amount and created bounds, and searched with q; the Link ' +
            'header has the next and previous pages.',
          parameters: listParams,
          responses: {
            200: withHeaders(json(ref('TransferList'), 'One page'), {
              Link: {
                description: 'RFC 8288 relative links rel="next" / rel="prev" (other parameters kept)',
                schema: { type: 'string' },
              },
            }),
            ...errors({
              bad_request:
                "Unknown or invalid parameters, both cursors, or a cursor that is not one of the caller's transfers (each named in errors[])",
            }),
          },
        },
      },
      '/api/transfers/{transferId}': {
        get: {
          description:
            "A transfer of the caller (another user's transfer is 404). Conditional: If-None-Match wins over If-Modified-Since; either can answer 304.",
          parameters: [
            ...transfer,
            header('If-None-Match', 'ETag(s)'),
            header('If-Modified-Since', 'HTTP date'),
          ],
          responses: {
            200: withHeaders(json(ref('Transfer'), 'The transfer'), validators),
            304: {
              description:
                'Not modified: If-None-Match lists the ETag, or (without it) If-Modified-Since is not older than `updated`',
              headers: validators,
            },
            ...errors(missingTransfer),
          },
        },
        put: {
          description:
            'Replaces description and metadata (absent members are cleared); amount, currency and destination cannot change (422 naming each).',
          parameters: transfer,
          requestBody: body(s.replaceTransferBody),
          responses: {
            200: withHeaders(json(ref('Transfer'), 'The updated transfer'), validators),
            ...errors(
              {
                ...missingTransfer,
                conflict: 'The transfer kept changing concurrently',
                validation_failed:
                  'Invalid/unknown fields, or amount/currency/destination (not updatable), each named in errors[]',
              },
              'unsupported_media_type',
            ),
          },
        },
        post: {
          description:
            'Sent metadata keys merge, an empty string removes a key and metadata null clears all; at most 50 keys after the merge.',
          parameters: [...transfer, idempotencyKey],
          requestBody: body(s.updateTransferBody),
          responses: {
            200: withHeaders(json(ref('Transfer'), 'The updated transfer'), { ...validators, ...replayed }),
            ...errors(
              {
                ...missingTransfer,
                conflict: 'The transfer kept changing concurrently',
                validation_failed:
                  'Invalid/unknown fields, amount/currency/destination, or over 50 metadata keys after the merge',
              },
              'bad_request',
              'idempotency_error',
              'unsupported_media_type',
            ),
          },
        },
      },
      '/api/users/{userId}/devices': {
        get: {
          description:
            'The factors of the user (the caller, or any user for an admin), oldest first, without secrets or addresses.',
          parameters: user,
          responses: {
            200: json({ type: 'array', items: ref('Device') }, 'Factors, oldest first'),
            ...errors(notSelf),
          },
        },
        post: {
          description:
            'Enrols a factor `pending_activation`, gone after 10 minutes unless activated. `activation` is shown ' +
            'once: otp `{secret, otpauth_uri}`; sms, voice, email `{sent_to}` (a 6-digit code sent); push ' +
            '`{ticket, expires_at}` (the device app activates with it, 5 minutes); device `{public_key}` ' +
            '(PublicKeyCredentialCreationOptionsJSON). A user with an active factor needs X-MFA-Verification ' +
            '(consumed); a user with none, the API token only. At most 10 factors a user.',
          parameters: [...user, stepUp],
          requestBody: body(mfa.enrollBody),
          responses: {
            201: withHeaders(json(r.enrolledSchema, 'The pending factor and its activation data'), {
              Location: { description: 'The factor', schema: { type: 'string' } },
            }),
            ...errors(
              {
                ...notSelf,
                step_up_required: 'The user has an active factor and sent no valid X-MFA-Verification',
                conflict: 'The user has 10 factors already',
                validation_failed:
                  'Unknown kind, phone_number not E.164 or refused by the destination policy, email not an address (named in errors[])',
                too_many_requests:
                  `More than ${hour('enrolmentSends')} code-sending enrolments (sms, voice; e-mail counted apart) of a user with no active factor, ` +
                  `${hour('enrolmentSendsWithFactor')} once one is active; or ${sendLimits.destination}`,
                service_unavailable: sendLimits.stack,
              },
              'unsupported_media_type',
            ),
          },
        },
      },
      '/api/users/{userId}/devices/{deviceId}/activate': {
        post: {
          description:
            '`{code}` for otp, sms, voice and email; `{credential}` (RegistrationResponseJSON, user verification ' +
            'required) for a device. The factor becomes `active`; the first factor a user activates returns ' +
            `ten recovery_codes (shown once). At most ${MFA_LIMITS.activations.max} wrong attempts per factor per ` +
            `${MFA_LIMITS.activations.windowSeconds / 60} minutes. A push factor is activated by its device app. ` +
            'The first factor a user activates discards every other pending factor enrolled without a ' +
            'step-up (they are deleted with the activation and answer 404 after). A factor enrolled while the ' +
            'user had no active factor needs X-MFA-Verification (consumed) once another factor is active. ' +
            'A passkey credential id is registered once across every user (409).',
          parameters: [...device, stepUp],
          requestBody: body(mfa.activateBody),
          responses: {
            200: json(r.activatedSchema, 'The active factor (and the first recovery codes)'),
            ...errors(
              {
                ...notSelf,
                not_found:
                  "No such pending factor (or it expired, or the user's first activation discarded it)",
                step_up_required:
                  'Enrolled without a step-up, another factor is active now, and no valid X-MFA-Verification',
                conflict:
                  'Already active, a push factor (activated by the device app), or a passkey whose credential id is ' +
                  'registered already (to any factor of any user)',
                validation_failed:
                  'Malformed body, or a wrong code or refused credential: errors[] names it, attempts_left says how many remain',
                too_many_requests: `${MFA_LIMITS.activations.max} wrong attempts in ${MFA_LIMITS.activations.windowSeconds / 60} minutes (Retry-After)`,
              },
              'unsupported_media_type',
            ),
          },
        },
      },
      '/api/users/{userId}/devices/{deviceId}': {
        delete: {
          description:
            'Needs an approved X-MFA-Verification of that user, consumed with the delete. Deleting the default factor does not promote another one.',
          parameters: [...device, stepUp],
          responses: {
            204: { description: 'Deleted; the step-up verification is consumed' },
            ...errors({
              ...notSelf,
              step_up_required: 'No valid X-MFA-Verification',
              not_found: 'No such factor',
              conflict: 'A concurrent request used the same verification',
            }),
          },
        },
      },
      '/api/users/{userId}/verifications': {
        post: {
          description:
            `Starts a verification of one of the user's active factors, valid 10 minutes: sms, voice and email ` +
            'are sent a 6-digit code; a device (passkey) answers `public_key` (PublicKeyCredentialRequestOptionsJSON); ' +
            'a push answers `number` for the caller to show, and notifies the device (one pending push per user: a ' +
            `new one expires the previous). At most ${MFA_LIMITS.starts.max} starts per factor ` +
            `per ${MFA_LIMITS.starts.windowSeconds / 60} minutes.`,
          parameters: [...user, idempotencyKey],
          requestBody: body(mfa.startVerificationBody),
          responses: {
            201: withHeaders(
              json(ref('Verification'), 'The pending verification (expires in 10 minutes)'),
              replayed,
            ),
            ...errors(
              {
                ...notSelf,
                validation_failed: 'device_id malformed, not a factor of this user, or not active',
                too_many_requests:
                  `More than ${MFA_LIMITS.starts.max} starts of this factor in ` +
                  `${MFA_LIMITS.starts.windowSeconds / 60} minutes (Retry-After); or ${sendLimits.destination}`,
                service_unavailable: sendLimits.stack,
              },
              'bad_request',
              'idempotency_error',
              'unsupported_media_type',
            ),
          },
        },
      },
      '/api/users/{userId}/verifications/{verificationId}': {
        get: {
          description:
            'A push is `pending` until the device answers (`approved` or `denied`); a pending one past its ' +
            'expiry, or superseded by a newer push, is `expired`.',
          parameters: verification,
          responses: {
            200: json(ref('Verification'), 'pending, approved, denied, expired or max_attempts_reached'),
            ...errors({ ...notSelf, not_found: 'No such verification of this user' }),
          },
        },
        post: {
          description:
            'Exactly one of `code` (TOTP or sent code), `credential` (AuthenticationResponseJSON of a device ' +
            'factor), `recovery_code` or `mfa_token`. A wrong one is 422 with attempts_left; the ' +
            'fifth wrong one ends the verification (429). An approved verification can serve once as a ' +
            'step-up within 5 minutes.',
          parameters: [...verification, idempotencyKey],
          requestBody: body(mfa.verifyBody),
          responses: {
            200: withHeaders(json(ref('Approved'), 'Approved'), replayed),
            ...errors(
              {
                ...notSelf,
                not_found: 'No such verification of this user',
                conflict: 'Already approved (an approval cannot be repeated), or a concurrent attempt',
                gone: 'The verification expired (10 minutes) or its factor was deleted',
                validation_failed:
                  'Malformed body, or a wrong/used code or mfa_token: errors[] names it and attempts_left says how many remain',
                too_many_requests:
                  `${MAX_ATTEMPTS} failed attempts: the verification is max_attempts_reached (Retry-After: 0, start a new one); ` +
                  `or the factor had ${MFA_LIMITS.codeFailures.max} failed codes (the user ${MFA_LIMITS.tokenFailures.max} failed mfa_tokens) ` +
                  'in the last hour: refused whatever the proof, with Retry-After',
              },
              'bad_request',
              'idempotency_error',
              'unsupported_media_type',
            ),
          },
        },
      },
      '/api/users/{userId}/recovery_codes': {
        post: {
          description:
            'Ten new single-use codes, stored hashed; each approves a verification once as `{recovery_code}`. ' +
            'Needs an approved X-MFA-Verification, consumed.',
          parameters: [...user, stepUp],
          responses: {
            200: json(r.recoveryCodesSchema, 'Ten new single-use codes; the old ones no longer work'),
            ...errors({ ...notSelf, step_up_required: 'No valid X-MFA-Verification' }),
          },
        },
      },
      '/api/push/activations': {
        post: {
          description:
            'The single-use ticket (from enrolling a push factor) is the credential. `public_key`: the device ' +
            "app's EC P-256 public key (JWK, no private part). `push_token`: the APNs/FCM token, for SNS mobile " +
            'push where the stack has a platform application. A push factor enrolled while the user had no ' +
            'active factor cannot be activated once another factor is active (the device app carries no step-up).',
          security: [],
          requestBody: body(mfa.pushActivationBody),
          responses: {
            201: json(r.pushActivatedSchema, 'The device id (the `kid` and `sub` of its JWTs)'),
            ...errors(
              {
                gone: "The ticket was used or expired (5 minutes), or the user's first activation discarded its factor: enrol again",
                forbidden:
                  'The factor was enrolled while the user had no active factor, and another is active now: enrol it again with a step-up',
                validation_failed: 'Malformed ticket or JWK (named in errors[])',
                too_many_requests: sourceLimit,
              },
              'unsupported_media_type',
            ),
          },
        },
      },
      '/api/push/challenges': {
        get: {
          description: 'Authorization: Bearer <device JWT>.',
          responses: {
            200: json(
              { type: 'array', items: schema(r.pushChallengeSchema) },
              'At most one pending challenge',
            ),
            ...errors(deviceJwt),
          },
        },
      },
      '/api/push/challenges/{verificationId}': {
        post: {
          description:
            'Authorization: Bearer <device JWT>. `response`: compact JWS (ES256, kid = the device id) of ' +
            '`{sub: verification id, iat, exp (at most 60 s after iat), decision: approve|deny, number}`. ' +
            'Approve with the right number → approved; a wrong number or deny → denied (a security event).',
          parameters: challenge,
          requestBody: body(mfa.pushAnswerBody),
          responses: {
            200: json(r.decisionSchema, 'approved or denied'),
            ...errors(
              {
                unauthorized: `${deviceJwt.unauthorized}; or a bad, another device's, expired or replayed decision JWS`,
                conflict: 'The challenge is not pending (answered, expired or superseded)',
                not_found: 'Not a verification id',
                too_many_requests: sourceLimit,
              },
              'validation_failed',
              'unsupported_media_type',
            ),
          },
        },
      },
      '/api/users/{userId}/mfa_token': {
        post: {
          description:
            'Admin only. Issues a recovery token for the user, shown once; it approves a verification in place of a code, once unless issued reusable.',
          parameters: [...user, idempotencyKey],
          requestBody: body(mfa.mfaTokenBody, false),
          responses: {
            201: withHeaders(
              json(ref('MfaToken'), `The token (default and maximum lifetime ${MFA_TOKEN_MAX_SECONDS} s)`),
              replayed,
            ),
            ...errors(
              { forbidden: 'The caller is not an admin' },
              'bad_request',
              'idempotency_error',
              'unsupported_media_type',
              'validation_failed',
            ),
          },
        },
      },
    },
    components: {
      schemas: {
        Transfer: schema(r.transferSchema),
        TransferList: {
          ...schema(r.transferListSchema),
          properties: {
            ...(schema(r.transferListSchema).properties as object),
            data: { type: 'array', items: ref('Transfer') },
          },
        },
        Device: schema(r.deviceSchema),
        Verification: schema(r.verificationSchema),
        Approved: schema(r.approvedSchema),
        MfaToken: schema(r.mfaTokenSchema),
        Error: {
          type: 'object',
          required: ['code', 'message', 'description'],
          properties: {
            code: errorCodeSchema,
            message: { type: 'string' },
            description: { type: 'string', description: 'The cause' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['field', 'message'],
                properties: { field: { type: 'string' }, message: { type: 'string' } },
              },
            },
            attempts_left: { type: 'integer', description: 'Verification attempts left (verify only)' },
          },
        },
      },
    },
  });
