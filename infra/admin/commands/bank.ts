import { InvalidArgumentError, type Command } from 'commander';
import { FACTOR_KINDS as KINDS } from '../../../lib/bank/model.ts';
import { fullMfa, fullMfaWithTotp } from '../../../lib/bank/wiring.ts';
import { fullIdentity } from '../../../lib/identity/wiring.ts';
import { print } from '../print.ts';

const kind = (v: string) => {
  if (!(KINDS as readonly string[]).includes(v)) throw new InvalidArgumentError(`one of ${KINDS.join(', ')}`);
  return v as (typeof KINDS)[number];
};
const nonEmpty = (v: string) => {
  if (!v.trim()) throw new InvalidArgumentError('must not be empty');
  return v;
};

/** The domain's validation errors as one readable message. */
const explain = (err: unknown): Error => {
  const e = err as { description?: string; fields?: Array<{ field: string; message: string }> };
  return e.fields?.length
    ? new Error(e.fields.map((f) => `--${f.field}: ${f.message}`).join('; '))
    : (err as Error);
};

/** Bank API admin commands (registered by infra/admin/program.ts). */
export function registerBankCommands(program: Command): void {
  program
    .command('enroll-device')
    .description(
      'enroll a multi-factor device for a user (an otp factor prints its secret and otpauth:// URI, once)',
    )
    .requiredOption('--user <id>', 'user id')
    .requiredOption('--kind <kind>', KINDS.join('|'), kind)
    .option('--name <name>', 'display name of the factor', nonEmpty)
    .option('--phone <e164>', 'phone number for sms/voice, e.g. +15551234567')
    .option('--email <address>', 'email address for email')
    .action(async (o) => {
      const user = await fullIdentity().getUser(o.user);
      if (!user) throw new Error(`unknown user ${o.user}`);
      const enrolled = await fullMfaWithTotp()
        .enroll({
          userId: user.id,
          kind: o.kind,
          name: o.name,
          phone: o.phone,
          email: o.email,
          account: user.email ?? user.userPath,
        })
        .catch((err) => {
          throw explain(err);
        });
      print(enrolled);
    });

  program
    .command('outbox')
    .description(
      'pending verification codes sent to a user through the outbox sender ' +
        '(local stand-in for sms/voice/email/push)',
    )
    .requiredOption('--user <id>', 'user id')
    .action(async (o) => print(await fullMfa().outbox(o.user)));
}
