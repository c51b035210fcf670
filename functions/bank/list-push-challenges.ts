// GET /api/push/challenges: the device's pending challenge (never the number), device JWT auth.
import { ok } from '#lib/http/rest.ts';
import { deviceOf, deviceOperation } from '#lib/bank/http/device-auth.ts';
import { pushChallenges } from '#lib/bank/wiring.ts';

export const handler = deviceOperation({}, async (req) =>
  ok(await pushChallenges().challenges(deviceOf(req))),
);
