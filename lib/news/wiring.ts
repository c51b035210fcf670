// The one place the News adapters are chosen and handed to its domain; built on first use.
import { systemClock } from '../domain/clock.ts';
import { once } from '../domain/once.ts';
import { logger } from '../http/logger.ts';
import { DynamoNewsReader } from './adapters/dynamo-reader.ts';
import { DynamoStatusStore } from './adapters/dynamo-status.ts';
import { StatusCounters } from './counters.ts';
import { NewsService, StatusService } from './service.ts';

/** This container's status counters (every News response is counted). */
export const counters = /* @__PURE__ */ once(
  () =>
    new StatusCounters(new DynamoStatusStore(), systemClock, (error) =>
      logger.warn('status counters not flushed', { error }),
    ),
);

export const news = /* @__PURE__ */ once(() => new NewsService(new DynamoNewsReader()));

export const status = /* @__PURE__ */ once(
  () => new StatusService(new DynamoStatusStore(), counters(), systemClock),
);

/** The internal edge's key and the CSRF signing key: Secrets Manager, read once per container. */
export { csrfSigningSecret, internalApiKey } from '../data/secrets.ts';
