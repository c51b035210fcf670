// The note pages' adapter (reading notes through the Notes store), handed to their service; built on first use.
import { once } from '../../domain/once.ts';
import { getNote } from '../notes/adapters/dynamo-notes.ts';
import { dynamoPages } from './adapters/dynamo-pages.ts';
import { PageService } from './service.ts';

export const pages = once(() => new PageService(dynamoPages(getNote)));
