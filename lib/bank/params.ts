// Path parameters of the Bank routes. Request bodies and the listing query are in schemas.ts
// (transfers) and mfa-schemas.ts: a module builds all its schemas when it loads, so each function
// loads the schemas of its own routes only (cold start).
import * as v from 'valibot';
import { object } from '../domain/schema.ts';

export const transferPath = object({ transferId: v.string() });
export const userPath = object({ userId: v.string() });
export const devicePath = object({ userId: v.string(), deviceId: v.string() });
export const verificationPath = object({ userId: v.string(), verificationId: v.string() });
export const challengePath = object({ verificationId: v.string() });
