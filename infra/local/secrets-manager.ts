// The local stand-in for AWS Secrets Manager: GetSecretValue only (the one call lib/data/secrets.ts
// makes), AWS JSON 1.1 protocol, on a free loopback port. The runner serves the local secrets with
// it and points the functions at it through the standard AWS_ENDPOINT_URL_SECRETS_MANAGER variable,
// so the functions read secrets exactly as deployed (ids in <NAME>_ARN variables), never from env.
import { createServer, type Server } from 'node:http';

/** Local secret ids, and the plain-value variables (from the local stack) each one serves. */
export const LOCAL_SECRETS = {
  CSRF_SIGNING_SECRET_ARN: { id: 'tri-api-local/csrf-signing-secret', from: 'CSRF_SIGNING_SECRET' },
  MFA_ENCRYPTION_KEY_ARN: { id: 'tri-api-local/mfa-encryption-key', from: 'MFA_ENCRYPTION_KEY' },
  INTERNAL_API_KEY_ARN: { id: 'tri-api-local/internal-api-key', from: 'INTERNAL_API_KEY' },
} as const;

export interface LocalSecretsManager {
  endpoint?: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

const reply = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });

function answer(target: string | undefined, raw: string, values: Map<string, string>) {
  if (target !== 'secretsmanager.GetSecretValue') {
    return reply(400, { __type: 'UnknownOperationException', message: `${target} is not emulated` });
  }
  let id: unknown;
  try {
    id = JSON.parse(raw).SecretId;
  } catch {
    return reply(400, { __type: 'SerializationException' });
  }
  const value = typeof id === 'string' ? values.get(id) : undefined;
  if (value === undefined) {
    return reply(400, {
      __type: 'ResourceNotFoundException',
      message: "Secrets Manager can't find the specified secret.",
    });
  }
  return reply(200, {
    ARN: id,
    Name: id,
    SecretString: value,
    VersionId: 'local',
    VersionStages: ['AWSCURRENT'],
    CreatedDate: 0,
  });
}

/** Serves the secrets whose plain values `env` holds; returns the variables the functions need. */
export async function startLocalSecretsManager(env: Record<string, string>): Promise<LocalSecretsManager> {
  const values = new Map<string, string>();
  const out: Record<string, string> = {};
  for (const [variable, { id, from }] of Object.entries(LOCAL_SECRETS)) {
    if (env[from] === undefined) continue;
    values.set(id, env[from]);
    out[variable] = id;
  }
  if (values.size === 0) return { env: {}, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = req.headers['x-amz-target'];
      const { status, body } = answer(
        Array.isArray(target) ? target[0] : target,
        Buffer.concat(chunks).toString(),
        values,
      );
      res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  out.AWS_ENDPOINT_URL_SECRETS_MANAGER = endpoint;
  return {
    endpoint,
    env: out,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
