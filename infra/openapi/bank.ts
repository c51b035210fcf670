import { document } from './build.ts';

/** OpenAPI 3.1 document of the Bank API. */
export const buildBankDocument = () => document({ title: 'Bank API', version: '0.0.0', description: '', paths: {} });
