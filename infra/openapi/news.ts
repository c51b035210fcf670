import { document } from './build.ts';

/** OpenAPI 3.1 document of the News API. */
export const buildNewsDocument = () => document({ title: 'News API', version: '0.0.0', description: '', paths: {} });
