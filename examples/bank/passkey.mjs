// The passkey page's script (passkey.html), served by `npm start` at http://localhost:3000/_bank/passkey
// as it is (no bundle): what a bank's front end does with the Bank API's WebAuthn options, using the
// browser's own navigator.credentials. Enrol: POST devices {"kind": "device"} → create() on
// `activation.public_key` → POST activate {"credential"}. Verify: POST verifications → get() on
// `public_key` → POST verifications/{id} {"credential"}. The approved verification is then a step-up
// (X-MFA-Verification) of a transfer. Step 1 approves a code factor (otp, sms, voice, email) for
// users who need a step-up to enrol.
const $ = (id) => document.getElementById(id);
const status = $('status');
const params = new URLSearchParams(location.search);
if (params.get('user')) $('user').value = params.get('user');

/** The state the page is in (data-state, for a test or a reader) and a line saying what happened. */
function show(state, text) {
  status.dataset.state = state;
  status.textContent = text;
}

function log(line) {
  $('log').textContent += `${line}\n`;
}

/** One Bank API call with the page's token; throws the API's message (and fields) on anything but 2xx. */
async function api(method, path, { body, headers = {} } = {}) {
  const res = await fetch(path, {
    method,
    headers: {
      authorization: `Bearer ${$('token').value.trim()}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = res.status === 204 ? null : await res.json().catch(() => null);
  log(`${method} ${path} → ${res.status}`);
  if (!res.ok) {
    const fields = (json?.errors ?? []).map((e) => ` ${e.field}: ${e.message}`).join(';');
    throw new Error(
      `${method} ${path} → ${res.status}: ${json?.description ?? json?.message ?? ''}${fields}`,
    );
  }
  return json;
}

const userPath = (rest = '') => `/api/users/${encodeURIComponent($('user').value.trim())}${rest}`;
const stepUp = (id) => (id.trim() ? { 'X-MFA-Verification': id.trim() } : {});

// WebAuthn JSON ↔ the browser's ArrayBuffers: the standard static methods where the browser has
// them (PublicKeyCredential.parse*OptionsFromJSON, credential.toJSON()), else by hand.
const bytes = (b64url) =>
  Uint8Array.from(atob(b64url.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const b64url = (buffer) =>
  btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const withIds = (list) => (list ?? []).map((c) => ({ ...c, id: bytes(c.id) }));

function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON)
    return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return {
    ...json,
    challenge: bytes(json.challenge),
    user: { ...json.user, id: bytes(json.user.id) },
    excludeCredentials: withIds(json.excludeCredentials),
  };
}

function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON)
    return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  return { ...json, challenge: bytes(json.challenge), allowCredentials: withIds(json.allowCredentials) };
}

function credentialJSON(credential) {
  if (typeof credential.toJSON === 'function') return credential.toJSON();
  const r = credential.response;
  const response = r.attestationObject
    ? {
        clientDataJSON: b64url(r.clientDataJSON),
        attestationObject: b64url(r.attestationObject),
        transports: r.getTransports?.() ?? [],
      }
    : {
        clientDataJSON: b64url(r.clientDataJSON),
        authenticatorData: b64url(r.authenticatorData),
        signature: b64url(r.signature),
        ...(r.userHandle ? { userHandle: b64url(r.userHandle) } : {}),
      };
  return {
    id: credential.id,
    rawId: b64url(credential.rawId),
    type: credential.type,
    response,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
  };
}

/** The user's active factors into the two lists: code factors for step 1, passkeys for step 3. */
async function loadFactors(selected) {
  const factors = await api('GET', userPath('/devices'));
  const option = (f) =>
    new Option(`${f.name ?? f.kind} (${f.kind}, ${f.id})`, f.id, false, f.id === selected);
  const active = factors.filter((f) => f.status !== 'pending_activation');
  $('code-factor').replaceChildren(
    ...active.filter((f) => ['otp', 'sms', 'voice', 'email'].includes(f.kind)).map(option),
  );
  $('passkey').replaceChildren(...active.filter((f) => f.kind === 'device').map(option));
}

/** Runs one step of the page: its errors end up in the status line, never unseen. */
function step(form, run) {
  $(form).addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!$('token').value.trim() || !$('user').value.trim())
      return show('error', 'Give a token and a user id.');
    show('working', 'Working…');
    try {
      await run();
    } catch (err) {
      show('error', err.message ?? String(err));
    }
  });
}

let codeVerification;
$('code-start').addEventListener('click', async () => {
  show('working', 'Working…');
  try {
    const started = await api('POST', userPath('/verifications'), {
      body: { device_id: $('code-factor').value },
    });
    codeVerification = started.id;
    show(
      'code-sent',
      `Verification ${started.id} started: type the code (sms, voice, email: locally the outbox).`,
    );
  } catch (err) {
    show('error', err.message ?? String(err));
  }
});
step('who', async () => {
  await loadFactors();
  show('loaded', `Factors of ${$('user').value.trim()} loaded.`);
});

step('code-form', async () => {
  if (!codeVerification) throw new Error('Start a verification first.');
  const done = await api('POST', userPath(`/verifications/${codeVerification}`), {
    body: { code: $('code').value.trim() },
  });
  $('enrol-step-up').value = done.id;
  show('stepped-up', `Verification ${done.id} approved: it is the step-up of the enrolment.`);
});

step('enrol', async () => {
  const factor = await api('POST', userPath('/devices'), {
    headers: stepUp($('enrol-step-up').value),
    body: { kind: 'device', name: $('name').value.trim() || 'Passkey' },
  });
  show('creating', 'Creating the passkey: follow the browser.');
  const credential = await navigator.credentials.create({
    publicKey: creationOptions(factor.activation.public_key),
  });
  const active = await api('POST', userPath(`/devices/${factor.id}/activate`), {
    body: { credential: credentialJSON(credential) },
  });
  $('enrol-step-up').value = '';
  await loadFactors(active.id);
  const codes = active.recovery_codes
    ? ` Recovery codes (shown once): ${active.recovery_codes.join(' ')}`
    : '';
  show('enrolled', `Passkey ${active.id} is ${active.status}.${codes}`);
});

step('verify', async () => {
  const started = await api('POST', userPath('/verifications'), { body: { device_id: $('passkey').value } });
  show('signing', 'Signing the challenge: follow the browser.');
  const credential = await navigator.credentials.get({ publicKey: requestOptions(started.public_key) });
  const done = await api('POST', userPath(`/verifications/${started.id}`), {
    body: { credential: credentialJSON(credential) },
  });
  $('transfer-step-up').value = done.id;
  show('verified', `Verification ${done.id} ${done.status}: a step-up for the next 5 minutes, used once.`);
});

step('transfer', async () => {
  const transfer = await api('POST', '/api/transfers', {
    headers: stepUp($('transfer-step-up').value),
    body: {
      amount: Number($('amount').value),
      currency: $('currency').value.trim(),
      destination: $('destination').value.trim(),
    },
  });
  $('transfer-step-up').value = '';
  show('transferred', `Transfer ${transfer.id} created with the passkey's step-up.`);
});
