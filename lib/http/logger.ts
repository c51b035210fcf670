import { Logger } from '@aws-lambda-powertools/logger';

// One logger per container; POWERTOOLS_SERVICE_NAME and POWERTOOLS_LOG_LEVEL come from the template.
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'tri-api' });
