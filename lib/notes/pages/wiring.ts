// The note pages' adapter, handed to their service; built on first use.
import { once } from '../../domain/once.ts';
import { dynamoPages } from './adapters/dynamo-pages.ts';
import { PageService } from './service.ts';

export const pages = once(() => new PageService(dynamoPages));
