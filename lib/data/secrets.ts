// Deployment secrets, read from AWS Secrets Manager (GetSecretValue) once per container and cached.
// Each secret's id is in an environment variable <NAME>_ARN (template.yaml: a !Ref of the secret;
// locally: the runner's stand-in Secrets Manager, found through AWS_ENDPOINT_URL_SECRETS_MANAGER).
// The read starts when the module loads (Lambda's init phase) and every call awaits that one read.
// Each getter is its own export so a bundle holds (and its role may read) only the secrets it uses.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let client: SecretsManagerClient | undefined;

function secret(envName: string): () => Promise<string> {
  let value: Promise<string> | undefined;
  const read = (): Promise<string> => {
    const id = process.env[envName];
    if (!id) return Promise.reject(new Error(`missing required environment variable ${envName}`));
    client ??= new SecretsManagerClient({});
    const pending = client.send(new GetSecretValueCommand({ SecretId: id })).then((out) => {
      if (!out.SecretString) throw new Error(`secret ${envName} has no SecretString`);
      return out.SecretString;
    });
    pending.catch(() => {
      if (value === pending) value = undefined;
    }); // a failed read is retried
    value = pending;
    return pending;
  };
  if (process.env[envName]) read().catch(() => {}); // prefetch during init; errors surface on use
  return () => value ?? read();
}

/** HMAC key of the News anti-forgery tokens. */
export const csrfSigningSecret = /* @__PURE__ */ secret('CSRF_SIGNING_SECRET_ARN');
/** Key that encrypts OTP secrets and keys the code hashes (Bank MFA). */
export const mfaEncryptionKey = /* @__PURE__ */ secret('MFA_ENCRYPTION_KEY_ARN');
/** Pre-shared key of the internal edge (News CSRF endpoint). */
export const internalApiKey = /* @__PURE__ */ secret('INTERNAL_API_KEY_ARN');
