import type { NewTransfer } from '../../lib/bank/transfers.ts';
import { fullMfaWithTotp, fullTransfers } from '../../lib/bank/wiring.ts';
import type { DemoFactor, SeedContext } from './context.ts';

/** Bank demo data: transfers and an OTP factor for the demo user (an admin): lines to print, the factor. */
export async function seedBank(ctx: SeedContext): Promise<{ lines: string[]; otp: DemoFactor }> {
  const [mfa, transfers] = [fullMfaWithTotp(), fullTransfers()];
  const samples: NewTransfer[] = [
    {
      amount: 125_00,
      currency: 'eur',
      destination: 'DE89 3704 0044 0532 0130 00',
      description: 'Rent March',
      metadata: { category: 'home' },
    },
    {
      amount: 42_50,
      currency: 'usd',
      destination: 'acct_groceries',
      description: 'Groceries',
      metadata: { category: 'food' },
    },
    { amount: 9_900, currency: 'jpy', destination: 'acct_tokyo_cafe', description: null, metadata: {} },
    {
      amount: 3_000_00,
      currency: 'gbp',
      destination: 'GB29 NWBK 6016 1331 9268 19',
      description: 'Savings',
      metadata: { goal: 'holiday' },
    },
  ];
  for (const t of samples) await transfers.create(ctx.demo.id, t, {});
  const otp = await mfa.enroll({
    userId: ctx.demo.id,
    kind: 'otp',
    name: 'Authenticator app',
    account: 'demo@example.org',
  });
  return {
    lines: [
      `Bank: ${samples.length} transfers for Demo User; OTP factor ${otp.device.id}`,
      `Bank: OTP secret ${otp.secret} (add it to an authenticator app: ${otp.otpauth_uri})`,
    ],
    otp: { deviceId: otp.device.id, secret: otp.secret!, otpauthUri: otp.otpauth_uri! },
  };
}
