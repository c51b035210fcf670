// The Bank page's examples: transfers, then multi-factor authentication end to end (an OTP factor
// enrolled with the admin CLI, a verification approved with its code and used as a step-up; an SMS
// factor whose code is read from the local outbox; an admin's mfa_token).
import { CompactSign, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { totpCode } from '../../../lib/bank/totp.ts';
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
    'Every kind of factor is enrolled through the API (see "Enrolling factors through the API" below); an ' +
      'operator may also enrol one with the admin CLI, as here, for a user who has none yet. An OTP factor: the ' +
      'CLI prints its secret and `otpauth://` URI once; add it to an authenticator app.',
  );
  const otp = await ctx.admin(p, ['enroll-device', '--user', user, '--kind', 'otp', '--name', 'Work phone']);
  await p.call('List factors: `GET /api/users/{userId}/devices`', 'GET', `/api/users/${user}/devices`);
  const v1 = await p.call(
    'Start a verification: `POST /api/users/{userId}/verifications`',
    'POST',
    `/api/users/${user}/verifications`,
    { body: { device_id: otp.device.id } },
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
    'A factor that receives codes (sms, voice, email): locally the code goes to the outbox, which the ' +
      'admin CLI reads (deployed with `CodeSender=aws`, End User Messaging sends the SMS or reads the ' +
      'code aloud, SES the e-mail).',
  );
  const sms = await ctx.admin(p, [
    'enroll-device',
    '--user',
    user,
    '--kind',
    'sms',
    '--name',
    'Mobile',
    '--phone',
    '+15555550123',
  ]);
  const v2 = await p.call(
    'Start a verification of the SMS factor',
    'POST',
    `/api/users/${user}/verifications`,
    {
      headers: { 'Idempotency-Key': `login-${ctx.run}` },
      body: { device_id: sms.device.id },
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
    `/api/users/${user}/devices/${sms.device.id}`,
    { headers: { 'X-MFA-Verification': v2.json.id } },
  );
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
    body: { device_id: otp.device.id },
  });
  await p.call('Verify with the mfa_token', 'POST', `/api/users/${user}/verifications/${v3.json.id}`, {
    body: { mfa_token: token.json.mfa_token },
  });

  await enrolmentExamples(p, ctx, otp.device.id);
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
      'activation sends back `{"credential": credential.toJSON()}`:',
  );
  await p.call('Enrol a passkey', 'POST', `/api/users/${user}/devices`, {
    headers: { 'X-MFA-Verification': await stepUp(ctx, app.json.id, token.json.mfa_token) },
    body: { kind: 'device', name: 'Laptop' },
  });
  p.text(
    'Push with number matching: the ticket goes to the device app (a QR code), which activates with its ' +
      'own EC P-256 key (`examples/push-device.mjs` is a reference app):',
  );
  const push = await p.call('Enrol a push factor', 'POST', `/api/users/${user}/devices`, {
    headers: { 'X-MFA-Verification': await stepUp(ctx, app.json.id, token.json.mfa_token) },
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
