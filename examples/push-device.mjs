// A push-factor device app, as a reference for mobile developers: it holds an EC P-256 key, activates
// a push factor with the single-use ticket the Bank API gave the user (a QR code in a real app), lists
// the challenges waiting for it and answers one with a signed decision carrying the number the user
// typed (number matching). Every call is authenticated by a short-lived ES256 JWT the device signs:
// no API token ever lives on the device.
//
//   node examples/push-device.mjs activate --ticket <ticket> [--name "My phone"] [--push-token <token>]
//   node examples/push-device.mjs list
//   node examples/push-device.mjs approve <verification_id> [--number <n>]   (asks for the number if not given)
//   node examples/push-device.mjs deny <verification_id>
//
// Options: --api http://localhost:3000 (the Bank API's origin; default $BANK_API_URL or that),
// --state <file> (default ./push-device.json: the device id and its key pair; mode 0600. A real app
// keeps the private key in the platform's keystore, non-extractable), --json (print the API's JSON).
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { CompactSign, exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';

const USAGE = `usage:
  node examples/push-device.mjs activate --ticket <ticket> [--name <name>] [--push-token <token>]
  node examples/push-device.mjs list
  node examples/push-device.mjs approve <verification_id> [--number <n>]
  node examples/push-device.mjs deny <verification_id>
options: --api <origin> (default $BANK_API_URL or http://localhost:3000), --state <file>, --json`;

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    api: { type: 'string', default: process.env.BANK_API_URL ?? 'http://localhost:3000' },
    state: { type: 'string', default: 'push-device.json' },
    ticket: { type: 'string' },
    name: { type: 'string' },
    'push-token': { type: 'string' },
    number: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const [command, verificationId] = positionals;

function fail(message) {
  console.error(message);
  process.exit(1);
}

/** Calls the API; prints its error (status, message, fields) and exits on anything but 2xx. */
async function api(method, path, { body, bearer } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(new URL(path, opts.api), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the error below shows the text
  }
  if (!res.ok) {
    const fields = (json?.errors ?? []).map((e) => ` ${e.field}: ${e.message}`).join(';');
    fail(`${method} ${path} → ${res.status}: ${json?.description ?? json?.message ?? text}${fields}`);
  }
  return json;
}

function loadState() {
  if (!existsSync(opts.state)) fail(`no device state in ${opts.state}: run "activate" first`);
  return JSON.parse(readFileSync(opts.state, 'utf8'));
}

const now = () => Math.floor(Date.now() / 1000);

/** The device's credential for one call: ES256, kid = sub = its device id, valid 2 minutes (at most 5). */
async function deviceToken(state) {
  const key = await importJWK(state.private_key, 'ES256');
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: state.device_id, typ: 'JWT' })
    .setSubject(state.device_id)
    .setIssuedAt()
    .setExpirationTime(now() + 120)
    .sign(key);
}

/** The answer to a challenge: a compact JWS of the decision and the number typed, valid 60 s. */
async function signedDecision(state, id, decision, number) {
  const key = await importJWK(state.private_key, 'ES256');
  const iat = now();
  const payload = { sub: id, iat, exp: iat + 60, decision, ...(number === undefined ? {} : { number }) };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256', kid: state.device_id })
    .sign(key);
}

async function activate() {
  if (!opts.ticket) fail(USAGE);
  if (existsSync(opts.state))
    fail(`${opts.state} exists: this device is activated already (use another --state)`);
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const body = {
    ticket: opts.ticket,
    public_key: { kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x, y: publicJwk.y },
  };
  if (opts.name) body.name = opts.name;
  if (opts['push-token']) body.push_token = opts['push-token'];
  const res = await api('POST', '/api/push/activations', { body });
  writeFileSync(
    opts.state,
    JSON.stringify(
      { api: opts.api, device_id: res.device_id, private_key: await exportJWK(privateKey) },
      null,
      2,
    ),
    { mode: 0o600 },
  );
  chmodSync(opts.state, 0o600);
  console.log(opts.json ? JSON.stringify(res) : `activated ${res.device_id} (state in ${opts.state})`);
}

async function list() {
  const state = loadState();
  const challenges = await api('GET', '/api/push/challenges', { bearer: await deviceToken(state) });
  if (opts.json) return console.log(JSON.stringify(challenges));
  if (challenges.length === 0) return console.log('no pending challenges');
  for (const c of challenges)
    console.log(
      `${c.id}  expires ${new Date(c.expires_at * 1000).toISOString()}  ${JSON.stringify(c.context ?? {})}`,
    );
}

/** The number the user reads on the screen that asked for the approval, typed here. */
async function typedNumber() {
  if (opts.number !== undefined) return opts.number;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question('Type the number shown on the other screen: ');
  } finally {
    rl.close();
  }
}

async function answer(decision) {
  if (!verificationId) fail(USAGE);
  const state = loadState();
  let number;
  if (decision === 'approve') {
    const typed = (await typedNumber()).trim();
    if (!/^\d{1,6}$/.test(typed)) fail(`not a number: "${typed}"`);
    number = Number(typed);
  }
  const response = await signedDecision(state, verificationId, decision, number);
  const res = await api('POST', `/api/push/challenges/${encodeURIComponent(verificationId)}`, {
    bearer: await deviceToken(state),
    body: { response },
  });
  console.log(opts.json ? JSON.stringify(res) : `${verificationId}: ${res?.status ?? decision}`);
}

const commands = { activate, list, approve: () => answer('approve'), deny: () => answer('deny') };
if (!commands[command]) fail(USAGE);
await commands[command]();
