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
// Options: --api <origin> (the Bank API's origin; default $BANK_API_URL, else the URL of the stack
// `npm start` is running, from .local/stack.json), --state <file> (the device id and its key pair,
// mode 0600; default $PUSH_DEVICE_STATE or push-device.json in $XDG_STATE_HOME/tri-api, i.e.
// ~/.local/state/tri-api/: outside the repository, so a private key is never committed. A real app
// keeps the private key in the platform's keystore, non-extractable), --json (print the API's
// JSON), --help.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CompactSign, exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_STATE =
  process.env.PUSH_DEVICE_STATE ||
  join(process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'tri-api', 'push-device.json');

/** The running local stack's URL (what `npm start` wrote to LOCAL_DATA_DIR/stack.json), if any. */
function localStackUrl() {
  const file = join(resolve(ROOT, process.env.LOCAL_DATA_DIR ?? '.local'), 'stack.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')).url;
  } catch {
    return undefined;
  }
}

const USAGE = `usage:
  node examples/push-device.mjs activate --ticket <ticket> [--name <name>] [--push-token <token>]
  node examples/push-device.mjs list
  node examples/push-device.mjs approve <verification_id> [--number <n>]
  node examples/push-device.mjs deny <verification_id>
options:
  --api <origin>   the Bank API's origin (default $BANK_API_URL, else the stack "npm start" runs)
  --state <file>   the device id and private key, mode 0600 (default $PUSH_DEVICE_STATE or
                   ${DEFAULT_STATE}, outside the repository)
  --json           print the API's JSON
  --help           this text`;

function fail(message) {
  console.error(message);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      api: { type: 'string' },
      state: { type: 'string', default: DEFAULT_STATE },
      ticket: { type: 'string' },
      name: { type: 'string' },
      'push-token': { type: 'string' },
      number: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
} catch (err) {
  fail(`${err.message}\n${USAGE}`);
}
const { values: opts, positionals } = parsed;
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
const [command, verificationId] = positionals;

/** The API's origin: --api, $BANK_API_URL, the running local stack, or a message saying how to give it. */
function apiOrigin() {
  const origin = opts.api ?? process.env.BANK_API_URL ?? localStackUrl();
  if (!origin)
    fail(
      'no Bank API origin: pass --api <origin> or set BANK_API_URL (or start the local stack with "npm start")',
    );
  try {
    return new URL(origin);
  } catch {
    fail(`--api: not a URL: "${origin}"`);
  }
}

/** Calls the API; prints its error (status, message, fields) and exits on anything but 2xx. */
async function api(method, path, { body, bearer } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const url = new URL(path, apiOrigin());
  let res;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    const reason = err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(err);
    fail(
      `cannot reach the Bank API at ${url.origin} (${reason}): is the stack running there? ` +
        'Give its origin with --api <origin> or BANK_API_URL.',
    );
  }
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
  mkdirSync(dirname(resolve(opts.state)), { recursive: true, mode: 0o700 });
  writeFileSync(
    opts.state,
    JSON.stringify(
      { api: apiOrigin().origin, device_id: res.device_id, private_key: await exportJWK(privateKey) },
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
