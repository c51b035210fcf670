// Worked examples captured from a running local stack, as Markdown: each call's curl command (with
// `$TOKEN`, at http://localhost:3000) and its answer (status, the headers a client acts on, the body
// with long lists and strings cut). `npm run docs:examples` (infra/docs/examples/run.ts) writes them
// into the API pages of docs/.
const SHOWN = 'http://localhost:3000';
const SHOW_HEADERS = [
  'Location',
  'ETag',
  'Link',
  'Idempotent-Replayed',
  'Retry-After',
  'Content-Disposition',
  'Allow',
  'WWW-Authenticate',
];
const KEEP_ITEMS = 2;
const KEEP_CHARS = 240;

export interface Call {
  /** A bearer token; undefined: the page's token; null: none. */
  token?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
  form?: { field: string; file: string; type: string; bytes: Uint8Array };
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, read as each example needs it. */
  json: any;
}

export class Page {
  readonly lines: string[] = [];
  constructor(
    readonly base: string,
    readonly token: string,
  ) {}

  text(paragraph: string): void {
    this.lines.push(paragraph, '');
  }

  block(language: string, content: string): void {
    this.lines.push(`\`\`\`${language}`, content, '```', '');
  }

  async call(title: string, method: string, path: string, c: Call = {}): Promise<Answer> {
    const token = c.token === undefined ? this.token : c.token;
    const headers: Record<string, string> = { ...c.headers };
    const curl = [method === 'GET' ? `curl -s '${SHOWN}${path}'` : `curl -s -X ${method} '${SHOWN}${path}'`];
    if (token) {
      headers.authorization = `Bearer ${token}`;
      curl.push('-H "Authorization: Bearer $TOKEN"');
    }
    for (const [name, value] of Object.entries(c.headers ?? {})) curl.push(`-H '${name}: ${value}'`);
    let body: string | FormData | undefined;
    if (c.body !== undefined) {
      body = JSON.stringify(c.body);
      headers['content-type'] = 'application/json';
      curl.push(`-H 'Content-Type: application/json'`, `-d '${body.replaceAll("'", "'\\''")}'`);
    } else if (c.form) {
      body = new FormData();
      body.append(c.form.field, new Blob([c.form.bytes], { type: c.form.type }), c.form.file);
      curl.push(`-F '${c.form.field}=@${c.form.file};type=${c.form.type}'`);
    }
    const res = await fetch(this.base + path, { method, headers, body });
    const text = await res.text();
    const json = parse(text);
    const shown = [`HTTP/1.1 ${res.status} ${res.statusText}`];
    for (const name of SHOW_HEADERS) {
      const value = res.headers.get(name);
      if (value) shown.push(`${name}: ${this.local(value)}`);
    }
    const type = res.headers.get('content-type') ?? '';
    if (type && !type.startsWith('application/json')) shown.push(`Content-Type: ${type}`);
    const shownBody =
      json !== undefined && type.startsWith('application/json')
        ? JSON.stringify(cut(json), null, 2)
        : text.length > 600
          ? `${text.slice(0, 600)}\n…`
          : text;
    this.lines.push(`#### ${title}`, '');
    this.block('sh', curl.length > 2 ? curl.join(' \\\n  ') : curl.join(' '));
    this.block('http', shown.join('\n') + (shownBody ? `\n\n${this.local(shownBody.trimEnd())}` : ''));
    return { status: res.status, headers: res.headers, json };
  }

  /** The stack's own URL as the reader's default one; webhook secrets and mfa_tokens shortened. */
  local(text: string): string {
    return text
      .replaceAll(this.base, SHOWN)
      .replace(/(whsec_[A-Za-z0-9+/=]{6})[A-Za-z0-9+/=]+/g, '$1…')
      .replace(/(mfa_[A-Za-z0-9_-]{6})[A-Za-z0-9_-]{20,}/g, '$1…');
  }
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function cut(value: unknown): unknown {
  if (Array.isArray(value)) {
    const kept = value.slice(0, KEEP_ITEMS).map(cut);
    return value.length > KEEP_ITEMS ? [...kept, `… ${value.length - KEEP_ITEMS} more`] : kept;
  }
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, cut(v)]));
  if (typeof value === 'string' && value.length > KEEP_CHARS) return `${value.slice(0, KEEP_CHARS)}…`;
  return value;
}

/** What the examples of every page share: the stack, its demo user and team, the admin CLI. */
export interface Context {
  base: string;
  user: { id: string; token: string };
  team: string;
  /** The Demo User's seeded OTP factor (LOCAL_DATA_DIR/demo.json), absent in a demo set saved before it. */
  otp?: { deviceId: string; secret: string };
  internalKey: string;
  receiverPort: number;
  /** A short suffix that keeps this run's names and Idempotency-Keys apart from earlier runs'. */
  run: string;
  /** Runs the admin CLI, shows the command and its JSON on the page, and returns the JSON. */
  admin(page: Page, args: string[]): Promise<any>;
}
