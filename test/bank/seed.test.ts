// The bank seeder gives the demo user transfers and an OTP factor whose secret it prints.
import { describe, expect, it } from 'vitest';
import { seedBank } from '../../infra/seed/bank.ts';
import { fullMfa, fullTransfers } from '../../lib/bank/wiring.ts';
import { newUser } from '../support/identity.ts';

describe('seedBank', () => {
  it('adds transfers and an OTP factor, and prints the secret', async () => {
    const demo = { ...(await newUser('Demo', { admin: true })) };
    const { lines, otp } = await seedBank({ demo, alice: demo, bob: demo, teamPath: 'unused' });
    expect(lines.join('\n')).toContain(`OTP secret ${otp.secret}`);
    expect(otp.secret).toMatch(/^[A-Z2-7]+$/);
    expect(otp.otpauthUri).toContain(`secret=${otp.secret}`);
    expect((await fullTransfers().list(demo.id, {})).data.length).toBe(4);
    expect((await fullMfa().listDevices(demo.id)).map((d) => [d.kind, d.id])).toEqual([
      ['otp', otp.deviceId],
    ]);
  });
});
