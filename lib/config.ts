// Every setting comes from the environment (template.yaml Globals / Parameters when deployed, the
// local runner's environment locally). Read lazily so tests can set variables before first use.
// Secrets are not here: lib/data/secrets.ts reads them from Secrets Manager.
import { AsyncLocalStorage } from 'node:async_hooks';

const read = (name: string, fallback?: string): string => {
  const value = process.env[name];
  if (value !== undefined && value !== '') return value;
  if (fallback !== undefined) return fallback;
  throw new Error(`missing required environment variable ${name}`);
};

/** Where the request being served arrived (its API's stage URL): the public base when PUBLIC_BASE_URL is empty. */
const servedAt = new AsyncLocalStorage<string>();

/**
 * Runs `fn` as serving a request that arrived at `base` (`https://<API domain>/<stage>`, from the
 * event: lib/http/api.ts, servedBaseOf): with PUBLIC_BASE_URL empty (template.yaml's default), the
 * publishLinks and pages of the request are under the Notes API's own URL. Scoped to the request
 * (AsyncLocalStorage), so concurrent requests in one process each keep theirs.
 */
export const servingAt = <T>(base: string | undefined, fn: () => T): T =>
  base ? servedAt.run(base, fn) : fn();

/** Seconds before each retry of a failed webhook delivery (config.webhookRetryDelays). */
export const DEFAULT_WEBHOOK_RETRY_DELAYS = '30,120,600,1800,3600,7200,14400,28800,28800,28800';

export const config = {
  get tableName() {
    return read('TABLE_NAME');
  },
  /**
   * True while an upgrade of a deployed table has not yet built the new indexes (template parameter
   * IndexUpgradeStep 1 to 3, docs/deploy.md): functions query the first layout's indexes.
   */
  get legacyIndexes() {
    return ['1', '2', '3'].includes(read('INDEX_UPGRADE_STEP', 'done'));
  },
  get bucketName() {
    return read('BUCKET_NAME');
  },
  /**
   * Absolute base of the note pages; publishLink is built from it. PUBLIC_BASE_URL (template
   * parameter PublicBaseUrl: a custom domain) or, when empty, the URL the request arrived at
   * (servingAt: the Notes API's invoke URL); a function that serves no request (the webhook router)
   * gets the invoke URL in PUBLIC_BASE_URL itself (template.yaml).
   */
  get publicBaseUrl() {
    return read('PUBLIC_BASE_URL', servedAt.getStore() ?? 'http://localhost:3000').replace(/\/$/, '');
  },
  /** Absolute base under which uploaded note images are publicly readable. */
  get imageBaseUrl() {
    return read('IMAGE_BASE_URL', 'http://localhost:3000/_images').replace(/\/$/, '');
  },
  get internalEdgeOrigin() {
    return read('INTERNAL_EDGE_ORIGIN');
  },
  get internalApiHost() {
    return read('INTERNAL_API_HOST');
  },
  get transferStepUpAmount() {
    return Number(read('TRANSFER_STEP_UP_AMOUNT', '1000000'));
  },
  /** 'outbox' stores sms/voice/email codes in the table (local); 'aws' sends through SNS/SES. */
  get codeSender() {
    return read('CODE_SENDER', 'outbox');
  },
  /** Where sms and voice codes come from (template parameter SmsVoiceOriginationIdentity). */
  get smsVoiceOriginationIdentity() {
    return read('SMS_VOICE_ORIGINATION_IDENTITY', '') || undefined;
  },
  /** The calling codes sms and voice codes may go to, comma-separated; empty: all but the refused ranges (SmsVoiceAllowedCallingCodes). */
  get smsVoiceAllowedCallingCodes() {
    return read('SMS_VOICE_ALLOWED_CALLING_CODES', '');
  },
  /** Codes the stack sends per hour, sms and voice together (and e-mail apart): parameter SmsVoiceHourlyLimit. */
  get smsVoiceHourlyLimit() {
    return Number(read('SMS_VOICE_HOURLY_LIMIT', '1000'));
  },
  /** The WebAuthn RP ID passkeys are bound to (template parameter PasskeyRpId). */
  get passkeyRpId() {
    return read('PASSKEY_RP_ID', 'localhost');
  },
  /** The origins a passkey ceremony may come from, comma-separated (parameter PasskeyOrigins). */
  get passkeyOrigins(): string[] {
    return read('PASSKEY_ORIGINS', 'http://localhost:3000')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean);
  },
  /** The SNS platform application push notifications go through; empty: the device app polls. */
  get pushPlatformApplicationArn() {
    return read('PUSH_PLATFORM_APPLICATION_ARN', '');
  },
  get emailFrom() {
    return read('EMAIL_FROM', 'no-reply@example.com');
  },
  /** The WebSocket URL live clients connect to (docs/live.md); a ticket is added to it. */
  get liveUrl() {
    return read('NOTES_LIVE_URL', 'ws://localhost:3000/_live');
  },
  /** API Gateway's @connections endpoint of the live WebSocket API (the runner's locally). */
  get liveConnectionsUrl() {
    return read('NOTES_LIVE_CONNECTIONS_URL');
  },
  /** Days a deleted note stays restorable in the trash (template parameter NotesTrashRetentionDays). */
  get trashRetentionDays() {
    return Number(read('NOTES_TRASH_RETENTION_DAYS', '30'));
  },
  /** Calls per token per window (template parameters NotesRateLimit / NotesRateWindowSeconds). */
  get rateLimit() {
    return Number(read('NOTES_RATE_LIMIT', '100'));
  },
  get rateWindowSeconds() {
    return Number(read('NOTES_RATE_WINDOW_SECONDS', '300'));
  },
  /** Webhooks per workspace (template parameter NotesWebhookLimit). */
  get webhookLimit() {
    return Number(read('NOTES_WEBHOOK_LIMIT', '10'));
  },
  /** Days each delivery attempt stays in a webhook's delivery log (parameter WebhookDeliveryRetentionDays). */
  get webhookRetentionDays() {
    return Number(read('WEBHOOK_DELIVERY_RETENTION_DAYS', '30'));
  },
  /** Whether webhook URLs may be http (the local runner); deployed, https only. */
  get webhookAllowHttp() {
    return read('WEBHOOK_ALLOW_HTTP', 'false') === 'true';
  },
  /**
   * Locally, the only destinations deliveries may reach (host names or IPs, comma-separated; the
   * runner's default "127.0.0.1,localhost"). Unset when deployed: every public address, and no
   * loopback, private, link-local, multicast or metadata one.
   */
  get webhookAllowedDestinations(): string[] | undefined {
    const v = process.env.WEBHOOK_ALLOWED_DESTINATIONS;
    return v === undefined
      ? undefined
      : v
          .split(',')
          .map((d) => d.trim().toLowerCase())
          .filter(Boolean);
  },
  /** The delivery queue (SQS) and its dead-letter queue. */
  get webhookQueueUrl() {
    return read('WEBHOOK_QUEUE_URL');
  },
  get webhookDeadLetterQueueUrl() {
    return read('WEBHOOK_DLQ_URL');
  },
  /** The slow lane's queue: deliveries to receivers that leave attempts unanswered (docs/webhooks.md). */
  get webhookSlowQueueUrl() {
    return read('WEBHOOK_SLOW_QUEUE_URL');
  },
  /** The live windows' checks (lib/notes/webhooks/events/live-window.ts), each delayed to its window's end. */
  get webhookLiveWindowQueueUrl() {
    return read('WEBHOOK_LIVE_WINDOW_QUEUE_URL');
  },
  /** How long one delivery attempt may take before it counts as a timeout. */
  get webhookAttemptTimeoutMs() {
    return Number(read('WEBHOOK_ATTEMPT_TIMEOUT_MS', '10000'));
  },
  /**
   * Delays (seconds) before each retry of a failed delivery; the last one is the last retry.
   * Default: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, 8 h (31.7 h in all, at least 25.4 h
   * with the jitter), each ±20 %.
   */
  get webhookRetryDelays() {
    return read('WEBHOOK_RETRY_DELAYS', DEFAULT_WEBHOOK_RETRY_DELAYS).split(',').map(Number);
  },
  /**
   * Request timeout of each DynamoDB call in ms (lib/data/fail-fast.ts). Unset when deployed: 600.
   * The local stack sets more: an emulator on a busy machine is slow, not down.
   */
  get dynamoTimeoutMs() {
    return Number(read('DYNAMODB_TIMEOUT_MS', '600'));
  },
};
