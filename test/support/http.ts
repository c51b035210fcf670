// HTTP helpers for end-to-end tests against the local runner, or a deployed stack (TEST_BASE_URL).
export const baseUrl = () => process.env.TEST_BASE_URL!;

/**
 * The official HackMD client's per-request timeout in tests: a route's first call may build and
 * load its function while the machine is busy (docs/benchmarks.md: sized for load above 10).
 */
export const CLIENT_TIMEOUT_MS = 60_000;

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function http(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: RequestInit['body'] } = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let body: RequestInit['body'] = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl()}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
