// What the factor services (MfaService, FactorEnrolment) are built from: one options object. What a
// function does not wire defaults to lib/domain/only.ts's port with no methods, so a call the wiring
// did not foresee rejects naming itself (the MFA key, the TOTP library, the push notifier).
import type { Clock } from '../domain/clock.ts';
import { only } from '../domain/only.ts';
import { MFA_LIMITS } from './limits.ts';
import type { PasskeyConfig } from './passkeys.ts';
import type { CodeSender, PushNotifier, Totp } from './ports.ts';

export interface FactorDependencies<Store> {
  store: Store;
  sender: () => CodeSender;
  clock: Clock;
  /** The key that seals OTP secrets and keys code hashes (deployed: from Secrets Manager). */
  secretKey?: () => Promise<string>;
  /** Authenticator-app codes: enrolling an otp factor and checking its codes. */
  totp?: Totp;
  /** The RP ID and origins passkeys are bound to. */
  passkeyConfig?: () => PasskeyConfig;
  /** SNS mobile push to push devices that gave a token. */
  notifier?: () => PushNotifier;
  /** The calling codes sms and voice codes may go to; empty: all but the refused ranges. */
  allowedCallingCodes?: () => readonly string[];
  /** Codes the stack sends per hour and channel (SMS_VOICE_HOURLY_LIMIT). */
  stackSendLimit?: () => number;
}

/** The MFA key, unwired: it rejects, naming itself. */
export const unwiredKey = (): (() => Promise<string>) =>
  only<{ secretKey: () => Promise<string> }>('mfa', {}).secretKey;

const noPasskeys = (): PasskeyConfig => {
  throw new Error('this function has no passkey configuration');
};
const unwiredNotifier = only<PushNotifier>('pushNotifier', {});

/** The dependencies with every default filled in. */
export const withDefaults = <Store>(
  deps: FactorDependencies<Store>,
): Required<FactorDependencies<Store>> => ({
  secretKey: unwiredKey(),
  totp: only<Totp>('totp', {}),
  passkeyConfig: noPasskeys,
  notifier: () => unwiredNotifier,
  allowedCallingCodes: () => [],
  stackSendLimit: () => MFA_LIMITS.stackSends.max,
  ...deps,
});

/** What MfaService and FactorEnrolment hold: their dependencies, the defaults filled in. */
export abstract class FactorServiceBase<Store> {
  protected readonly store: Store;
  protected readonly sender: () => CodeSender;
  protected readonly clock: Clock;
  protected readonly secretKey: () => Promise<string>;
  protected readonly totp: Totp;
  protected readonly passkeyConfig: () => PasskeyConfig;
  protected readonly notifier: () => PushNotifier;
  protected readonly allowedCallingCodes: () => readonly string[];
  protected readonly stackSendLimit: () => number;

  constructor(deps: FactorDependencies<Store>) {
    ({
      store: this.store,
      sender: this.sender,
      clock: this.clock,
      secretKey: this.secretKey,
      totp: this.totp,
      passkeyConfig: this.passkeyConfig,
      notifier: this.notifier,
      allowedCallingCodes: this.allowedCallingCodes,
      stackSendLimit: this.stackSendLimit,
    } = withDefaults(deps));
  }
}
