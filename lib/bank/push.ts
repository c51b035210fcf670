// Push with number matching, the device app's side: it authenticates with a JWT it signs with its
// key (ES256, kid = sub = its device id), lists its pending challenge (never the number) and
// answers with a signed decision that carries the number the user typed. Also the caller's polling
// of a verification's status. Knows nothing of HTTP.
import { seconds, type Clock } from '../domain/clock.ts';
import { unwiredKey } from './factor-deps.ts';
import { Conflict, isConflict, NotFound, Unauthenticated } from '../domain/errors.ts';
import { hashCode, sameHash } from './crypto.ts';
import { DEVICE_ID, VERIFICATION_ID } from './ids.ts';
import { presentVerification, type PublicVerification, type SecurityLog } from './mfa.ts';
import type { FactorStore, PushDevice, PushStore } from './ports.ts';
import { readDeviceTokenKid, verifyDecision, verifyDeviceToken } from './push-keys.ts';

export interface PushChallenge {
  id: string;
  created: number;
  expires_at: number;
  /** What is being approved, for the app to show. */
  context: { action: 'verification'; user_id: string; factor_id: string };
}

/** A device's JWT or decision refused (401): logged for the device it names, then thrown on. */
function deviceAuthRefused(
  log: SecurityLog,
  device: PushDevice,
  proof: 'device_jwt' | 'decision',
  err: Unauthenticated,
  verificationId?: string,
): void {
  log('device_auth_refused', device.userId, {
    deviceId: device.deviceId,
    proof,
    reason: err.message,
    ...(verificationId ? { verificationId } : {}),
  });
}

async function refusedAs<T>(
  log: SecurityLog,
  device: PushDevice,
  proof: 'device_jwt' | 'decision',
  check: () => Promise<T>,
  verificationId?: string,
): Promise<T> {
  try {
    return await check();
  } catch (err) {
    if (err instanceof Unauthenticated) deviceAuthRefused(log, device, proof, err, verificationId);
    throw err;
  }
}

const notPending = () => new Conflict('The challenge is not pending (answered, expired or superseded)');

/** What the push service is built from; a function that seals nothing leaves the MFA key unwired. */
export interface PushDependencies {
  pushes: PushStore;
  factors: Pick<FactorStore, 'getVerification'>;
  clock: Clock;
  secretKey?: () => Promise<string>;
}

export class PushService {
  private readonly pushes: PushStore;
  private readonly factors: Pick<FactorStore, 'getVerification'>;
  private readonly clock: Clock;
  private readonly secretKey: () => Promise<string>;

  constructor(deps: PushDependencies) {
    ({ pushes: this.pushes, factors: this.factors, clock: this.clock } = deps);
    this.secretKey = deps.secretKey ?? unwiredKey();
  }

  private now(): number {
    return seconds(this.clock);
  }

  /**
   * The device a JWT was signed by; Unauthenticated (401) for anything else. A JWT that names a real
   * device but is not its (forged, expired) is a security event: `device_auth_refused`.
   */
  async authenticate(jwt: string, log: SecurityLog = () => {}): Promise<PushDevice> {
    const kid = readDeviceTokenKid(jwt);
    const device = DEVICE_ID.test(kid) ? await this.pushes.getPushDevice(kid) : undefined;
    if (!device) throw new Unauthenticated('The token names no push device of this API');
    await refusedAs(log, device, 'device_jwt', () =>
      verifyDeviceToken(jwt, device.key, device.deviceId, new Date(this.clock.now())),
    );
    return device;
  }

  /** The device's pending challenge (a user has at most one pending push). */
  async challenges(device: PushDevice): Promise<PushChallenge[]> {
    const now = this.now();
    const { verification: v, current } = await this.pushes.currentPush(device.userId);
    if (!v || v.deviceId !== device.deviceId || presentVerification(v, now, current).status !== 'pending')
      return [];
    return [
      {
        id: v.id,
        created: v.created,
        expires_at: v.expires_at,
        context: { action: 'verification', user_id: v.userId, factor_id: v.deviceId },
      },
    ];
  }

  /** Approves (right number) or denies (wrong number, or the user said no) a pending challenge. */
  async answer(device: PushDevice, verificationId: string, response: string, log: SecurityLog) {
    if (!VERIFICATION_ID.test(verificationId))
      throw new NotFound(`Challenge ${verificationId} does not exist`);
    const now = this.now();
    // A decision not signed by this device, malformed, expired or replayed: `device_auth_refused`.
    const decision = await refusedAs(
      log,
      device,
      'decision',
      async () => {
        const d = await verifyDecision(
          response,
          device.key,
          device.deviceId,
          verificationId,
          new Date(this.clock.now()),
        );
        if (await this.pushes.replayed(d.replayKey))
          throw new Unauthenticated('This decision was answered before');
        return d;
      },
      verificationId,
    );
    const { verification: v, current } = await this.pushes.currentPush(device.userId);
    if (!v || v.id !== verificationId || v.deviceId !== device.deviceId) throw notPending();
    if (presentVerification(v, now, current).status !== 'pending') throw notPending();
    const right =
      decision.decision === 'approve' &&
      decision.number !== null &&
      sameHash(v.codeHash!, hashCode(await this.secretKey(), v.id, String(decision.number)));
    const status = right ? 'approved' : 'denied';
    try {
      await this.pushes.decide(v, status, decision.replayKey, now);
    } catch (err) {
      if (isConflict(err, 'replay')) {
        const replayed = new Unauthenticated('This decision was answered before');
        deviceAuthRefused(log, device, 'decision', replayed, verificationId);
        throw replayed;
      }
      if (isConflict(err, 'state')) throw notPending();
      throw err;
    }
    if (status === 'denied')
      log('push_denied', device.userId, {
        verificationId,
        deviceId: device.deviceId,
        reason: decision.decision === 'deny' ? 'denied' : 'wrong_number',
      });
    return { id: v.id, status };
  }

  /** The caller polls a verification: pending, approved, denied, expired or max_attempts_reached. */
  async status(userId: string, verificationId: string): Promise<PublicVerification> {
    const missing = () => new NotFound(`Verification ${verificationId} does not exist`);
    if (!VERIFICATION_ID.test(verificationId)) throw missing();
    const { verification: v } = await this.factors.getVerification(userId, verificationId);
    if (!v) throw missing();
    const current =
      v.pushKey && v.status === 'pending' ? (await this.pushes.currentPush(userId)).current : undefined;
    return presentVerification(v, this.now(), current);
  }
}
