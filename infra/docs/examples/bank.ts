// The Bank page's examples: transfers, then multi-factor authentication end to end (the Demo User's
// seeded OTP factor approving a verification used as a step-up; an admin's mfa_token; an SMS factor
// enrolled through the API, its codes read from the local outbox), then every kind enrolled through
// the API (a passkey activated and verified with a software authenticator, push with number matching).
import { CompactSign, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { totpCode } from '../../../lib/bank/totp.ts';
import { createCredential, getAssertion } from '../../../test/support/software-authenticator.ts';
import type { Context, Page } from './capture.ts';

const RENT = {
  amount: 125000,
  currency: 'EUR',
  destination: 'DE89370400440532013000',
  description: 'Rent November',
  metadata: { invoice: 'INV-1042' },
};
const LARGE = { amount: 2500000, currency: 'EUR', destination: 'FR7630006000011234567890189' };

export async function bankExamples(p: Page, ctx: Context): Promise<void> {
  const user = ctx.user.id;
  const key = `rent-${ctx.run}`;
  p.text('### Transfers');
  const created = await p.call('Create a transfer: `POST /api/transfers`', 'POST', '/api/transfers', {
    headers: { 'Idempotency-Key': key },
    body: RENT,
  });
  const tr = created.json.id;
  p.text('Sent again with the same key and body, the first answer is replayed and nothing new is created:');
  await p.call('Retry with the same Idempotency-Key', 'POST', '/api/transfers', {
    headers: { 'Idempotency-Key': key },
    body: RENT,
  });
  await p.call('A body that breaks the rules: every field is named', 'POST', '/api/transfers', {
    body: { amount: 0, currency: 'EURO', destination: '', colour: 'red' },
  });
  await p.call(
    'List transfers: `GET /api/transfers`',
    'GET',
    '/api/transfers?limit=2&sort=-amount&currency=EUR',
  );
  await p.call('Search: `GET /api/transfers?q=`', 'GET', '/api/transfers?q=rent&limit=5');
  await p.call('Read one: `GET /api/transfers/{transferId}`', 'GET', `/api/transfers/${tr}`);
  await p.call(
    'Replace description and metadata: `PUT /api/transfers/{transferId}`',
    'PUT',
    `/api/transfers/${tr}`,
    {
      body: { description: 'Rent November (paid)', metadata: { invoice: 'INV-1042', paid: 'yes' } },
    },
  );
  await p.call('Change some fields: `POST /api/transfers/{transferId}`', 'POST', `/api/transfers/${tr}`, {
    body: { metadata: { paid: '', receipt: 'R-77' } },
  });
  p.text(
    'A transfer of `TRANSFER_STEP_UP_AMOUNT` (1000000 minor units by default) or more needs a step-up: ' +
      'an approved verification of the caller, sent as `X-MFA-Verification` (below).',
  );
  await p.call('A large transfer without a step-up', 'POST', '/api/transfers', { body: LARGE });

  p.text('### Multi-factor authentication, end to end');
  p.text(
    'Every kind of factor is enrolled through the API, by the user with their API token (see ' +
      '"Enrolling factors through the API" below). The Demo User starts with one active factor, an ' +
      'authenticator app (`otp`) the demo seed enrolled: `npm start` prints its id and secret (local ' +
      "only; see [The Demo User's first factor](bank.md#the-demo-users-first-factor)). Its code is the first " +
      'step-up:',
  );
  const otp = ctx.otp;
  if (!otp)
    throw new Error(
      'the demo set in LOCAL_DATA_DIR/demo.json predates its recorded OTP factor: remove demo.json and restart npm start',
    );
  await p.call('List factors: `GET /api/users/{userId}/devices`', 'GET', `/api/users/${user}/devices`);
  const v1 = await p.call(
    'Start a verification: `POST /api/users/{userId}/verifications`',
    'POST',
    `/api/users/${user}/verifications`,
    { body: { device_id: otp.deviceId } },
  );
  await p.call(
    'A wrong code: `attempts_left` says how many remain',
    'POST',
    `/api/users/${user}/verifications/${v1.json.id}`,
    { body: { code: '000000' } },
  );
  p.text(
    'The code is the one the authenticator app shows now (here computed from the secret, as `oathtool --totp -b <secret>` would):',
  );
  await p.call(
    'Verify it: `POST /api/users/{userId}/verifications/{verificationId}`',
    'POST',
    `/api/users/${user}/verifications/${v1.json.id}`,
    { body: { code: await totpCode(otp.secret, Math.floor(Date.now() / 1000)) } },
  );
  await p.call('The large transfer with the approved verification as step-up', 'POST', '/api/transfers', {
    headers: { 'X-MFA-Verification': v1.json.id },
    body: LARGE,
  });
  p.text('A step-up is used once: the same verification again is refused with 403 (code 40301).');
  p.text(
    "An admin can issue an `mfa_token` for a user (a support desk's one-time proof); the user verifies with it instead of a code:",
  );
  const token = await p.call(
    'Issue an mfa_token: `POST /api/users/{userId}/mfa_token`',
    'POST',
    `/api/users/${user}/mfa_token`,
    { headers: { 'Idempotency-Key': `support-${ctx.run}` }, body: { expires_in: 3600 } },
  );
  const v3 = await p.call('Start a verification', 'POST', `/api/users/${user}/verifications`, {
    body: { device_id: otp.deviceId },
  });
  await p.call('Verify with the mfa_token', 'POST', `/api/users/${user}/verifications/${v3.json.id}`, {
    body: { mfa_token: token.json.mfa_token },
  });
  p.text(
    'A factor that receives codes (sms, voice, email), enrolled with that approved verification as its ' +
      'step-up (the user has an active factor): locally the code goes to the outbox, which the admin CLI ' +
      'reads (deployed with `CodeSender=aws`, End User Messaging sends the SMS or reads the code aloud, ' +
      'SES the e-mail).',
  );
  const sms = await p.call('Enrol an SMS factor (with a step-up)', 'POST', `/api/users/${user}/devices`, {
    headers: { 'X-MFA-Verification': v3.json.id },
    body: { kind: 'sms', name: 'Mobile', phone_number: '+15555550123' },
  });
  const activation: { verificationId: string; code: string }[] = await ctx.admin(p, [
    'outbox',
    '--user',
    user,
  ]);
  await p.call(
    'Activate it with the code it received',
    'POST',
    `/api/users/${user}/devices/${sms.json.id}/activate`,
    { body: { code: activation.find((entry) => entry.verificationId === sms.json.id)?.code } },
  );
  const v2 = await p.call(
    'Start a verification of the SMS factor',
    'POST',
    `/api/users/${user}/verifications`,
    {
      headers: { 'Idempotency-Key': `login-${ctx.run}` },
      body: { device_id: sms.json.id },
    },
  );
  const outbox: { verificationId: string; code: string }[] = await ctx.admin(p, ['outbox', '--user', user]);
  const sent = outbox.find((entry) => entry.verificationId === v2.json.id);
  await p.call(
    'Verify with the code from the outbox',
    'POST',
    `/api/users/${user}/verifications/${v2.json.id}`,
    {
      body: { code: sent?.code },
    },
  );
  await p.call(
    'Delete a factor (needs a step-up): `DELETE /api/users/{userId}/devices/{deviceId}`',
    'DELETE',
    `/api/users/${user}/devices/${sms.json.id}`,
    { headers: { 'X-MFA-Verification': v2.json.id } },
  );

  await enrolmentExamples(p, ctx, otp.deviceId);
}

/** An approved verification of the otp factor (approved with a reusable mfa_token), not shown. */
async function stepUp(ctx: Context, deviceId: string, mfaToken: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${ctx.base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { id: string };
  };
  const v = await post(`/api/users/${ctx.user.id}/verifications`, { device_id: deviceId });
  await post(`/api/users/${ctx.user.id}/verifications/${v.id}`, { mfa_token: mfaToken });
  return v.id;
}

async function enrolmentExamples(p: Page, ctx: Context, otpId: string): Promise<void> {
  const user = ctx.user.id;
  p.text('### Enrolling factors through the API');
  p.text(
    'A factor is enrolled `pending_activation` with its activation data shown once, and becomes ' +
      '`active` when proven. The demo user already has an active factor, so each enrolment sends ' +
      '`X-MFA-Verification` with an approved verification (a user with none enrols with the API token ' +
      'alone). Here the step-ups are verifications of an active factor approved with a reusable mfa_token:',
  );
  const token = await p.call(
    'A reusable mfa_token for the step-ups below',
    'POST',
    `/api/users/${user}/mfa_token`,
    {
      body: { expires_in: 600, reusable: true },
    },
  );
  const up = () => stepUp(ctx, otpId, token.json.mfa_token);
  const voice = await p.call(
    'Enrol a factor: `POST /api/users/{userId}/devices`',
    'POST',
    `/api/users/${user}/devices`,
    {
      headers: { 'X-MFA-Verification': await up() },
      body: { kind: 'voice', name: 'Desk phone', phone_number: '+15555550199' },
    },
  );
  p.text('The code was read aloud to the phone (locally: written to the outbox, keyed by the factor id):');
  const outbox: { verificationId: string; code: string }[] = await ctx.admin(p, ['outbox', '--user', user]);
  const sent = outbox.find((entry) => entry.verificationId === voice.json.id);
  await p.call(
    'Activate it: `POST /api/users/{userId}/devices/{deviceId}/activate`',
    'POST',
    `/api/users/${user}/devices/${voice.json.id}/activate`,
    { body: { code: sent?.code } },
  );
  p.text(
    'An authenticator app (`kind: "otp"`): the secret and its `otpauth://` URI are shown once, for a QR code:',
  );
  const app = await p.call('Enrol an authenticator app', 'POST', `/api/users/${user}/devices`, {
    headers: { 'X-MFA-Verification': await stepUp(ctx, voice.json.id, token.json.mfa_token) },
    body: { kind: 'otp', name: 'Authenticator' },
  });
  await p.call(
    'Activate it with the code the app shows',
    'POST',
    `/api/users/${user}/devices/${app.json.id}/activate`,
    { body: { code: await totpCode(app.json.activation?.secret, Math.floor(Date.now() / 1000)) } },
  );
  const email = await p.call('Enrol an e-mail address', 'POST', `/api/users/${user}/devices`, {
    headers: { 'X-MFA-Verification': await stepUp(ctx, voice.json.id, token.json.mfa_token) },
    body: { kind: 'email', name: 'Work mail', email: 'ada@example.com' },
  });
  const mailed: { verificationId: string; code: string }[] = await ctx.admin(p, ['outbox', '--user', user]);
  await p.call(
    'Activate it with the code from the mail (locally: the outbox)',
    'POST',
    `/api/users/${user}/devices/${email.json.id}/activate`,
    { body: { code: mailed.find((entry) => entry.verificationId === email.json.id)?.code } },
  );
  p.text(
    'A passkey (`kind: "device"`): `activation.public_key` is what the browser passes to ' +
      '`navigator.credentials.create` (`PublicKeyCredential.parseCreationOptionsFromJSON`); the ' +
      'activation sends back `{"credential": credential.toJSON()}`. Locally the only origin a passkey is ' +
      "accepted from is the stack's own: `npm start` serves a page there that does these steps with the " +
      "browser's own WebAuthn (see [Passkeys in a browser](bank.md#passkeys-in-a-browser)):",
  );
  const passkey = await p.call('Enrol a passkey', 'POST', `/api/users/${user}/devices`, {
    headers: { 'X-MFA-Verification': await stepUp(ctx, app.json.id, token.json.mfa_token) },
    body: { kind: 'device', name: 'Laptop' },
  });
  // The browser's part, played by a software authenticator at the stack's origin (the RP origin).
  const ceremony = { origin: ctx.base };
  const created = createCredential(passkey.json.activation.public_key, ceremony, { counter: 1 });
  p.text(
    'The browser creates the credential (`navigator.credentials.create`, the user verified; here a ' +
      'software authenticator, `test/support/software-authenticator.ts`, plays the browser) and the page ' +
      'sends its JSON:',
  );
  await p.call(
    'Activate the passkey with the credential',
    'POST',
    `/api/users/${user}/devices/${passkey.json.id}/activate`,
    { body: { credential: created.response } },
  );
  p.text(
    'Verifying with a passkey: the verification answers `public_key` (`PublicKeyCredentialRequestOptionsJSON`) ' +
      'for `navigator.credentials.get`, and the assertion approves it:',
  );
  const pv = await p.call('Start a passkey verification', 'POST', `/api/users/${user}/verifications`, {
    body: { device_id: passkey.json.id },
  });
  await p.call('Verify with the assertion', 'POST', `/api/users/${user}/verifications/${pv.json.id}`, {
    body: { credential: getAssertion(pv.json.public_key, created.credential, ceremony) },
  });
  p.text(
    'Push with number matching, enrolled with the approved passkey verification as its step-up: the ' +
      'ticket goes to the device app (a QR code), which activates with its own EC P-256 key ' +
      '(`examples/push-device.mjs` is a reference app):',
  );
  const push = await p.call('Enrol a push factor', 'POST', `/api/users/${user}/devices`, {
    headers: { 'X-MFA-Verification': pv.json.id },
    body: { kind: 'push', name: 'My phone' },
  });
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const activated = await p.call(
    'The device app activates: `POST /api/push/activations`',
    'POST',
    '/api/push/activations',
    { token: null, body: { ticket: push.json.activation.ticket, public_key: await exportJWK(publicKey) } },
  );
  const deviceId: string = activated.json.device_id;
  const now = () => Math.floor(Date.now() / 1000);
  const deviceJwt = () =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: deviceId })
      .setSubject(deviceId)
      .setIssuedAt()
      .setExpirationTime(now() + 120)
      .sign(privateKey);
  const started = await p.call(
    'Start a push verification: the caller shows `number`',
    'POST',
    `/api/users/${user}/verifications`,
    {
      body: { device_id: deviceId },
    },
  );
  await p.call(
    "The device app's pending challenges: `GET /api/push/challenges`",
    'GET',
    '/api/push/challenges',
    { token: null, headers: { Authorization: `Bearer ${await deviceJwt()}` } },
  );
  const iat = now();
  const decision = await new CompactSign(
    new TextEncoder().encode(
      JSON.stringify({
        sub: started.json.id,
        iat,
        exp: iat + 60,
        decision: 'approve',
        number: started.json.number,
      }),
    ),
  )
    .setProtectedHeader({ alg: 'ES256', kid: deviceId })
    .sign(privateKey);
  await p.call(
    'The user types the number; the app answers: `POST /api/push/challenges/{verificationId}`',
    'POST',
    `/api/push/challenges/${started.json.id}`,
    { token: null, headers: { Authorization: `Bearer ${await deviceJwt()}` }, body: { response: decision } },
  );
  await p.call(
    'The caller polls: `GET /api/users/{userId}/verifications/{verificationId}`',
    'GET',
    `/api/users/${user}/verifications/${started.json.id}`,
  );
  p.text('An approved push is a step-up like any verification; here it replaces the recovery codes:');
  await p.call(
    'New recovery codes: `POST /api/users/{userId}/recovery_codes`',
    'POST',
    `/api/users/${user}/recovery_codes`,
    { headers: { 'X-MFA-Verification': started.json.id } },
  );
}
