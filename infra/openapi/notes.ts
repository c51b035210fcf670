import { document } from './build.ts';

/** OpenAPI 3.1 document of the Notes API. */
export const buildNotesDocument = () => document({ title: 'Notes API', version: '0.0.0', description: '', paths: {} });
