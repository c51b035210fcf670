// Path parameters of the Bank routes. Request bodies and the listing query are in schemas.ts
// (transfers) and mfa-schemas.ts: a module builds all its schemas when it loads, so each function
// loads the schemas of its own routes only (cold start).
import * as z from 'zod/mini';

export const transferPath = z.object({ transferId: z.string() });
export const userPath = z.object({ userId: z.string() });
export const devicePath = z.object({ userId: z.string(), deviceId: z.string() });
export const verificationPath = z.object({ userId: z.string(), verificationId: z.string() });
