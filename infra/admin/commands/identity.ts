import { InvalidArgumentError, type Command } from 'commander';
import { fullIdentity } from '../../../lib/identity/wiring.ts';
import { print } from '../print.ts';
import { seedDemo } from '../../seed/demo.ts';
import { demoStateFile } from '../context.ts';

const visibility = (v: string) => {
  if (v !== 'public' && v !== 'private') throw new InvalidArgumentError('must be public or private');
  return v as 'public' | 'private';
};
const pathArg = (v: string) => {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(v))
    throw new InvalidArgumentError('lower-case letters, digits and hyphens, starting with a letter or digit');
  return v;
};
const nonEmpty = (v: string) => {
  if (!v.trim()) throw new InvalidArgumentError('must not be empty');
  return v;
};

export function registerIdentityCommands(program: Command): void {
  program
    .command('create-user')
    .description('create a user and an API token')
    .requiredOption('--name <name>', 'display name', nonEmpty)
    .option('--email <email>', 'email address')
    .option('--path <userPath>', 'unique URL-safe user path (default: from the name)', pathArg)
    .action(async (o) => {
      const svc = fullIdentity();
      const user = await svc.createUser({ name: o.name, email: o.email, userPath: o.path });
      const token = await svc.issueToken(user.id);
      print({ id: user.id, name: user.name, userPath: user.userPath, token });
    });

  program
    .command('create-token')
    .description('issue another API token for a user (shown once)')
    .requiredOption('--user <id>', 'user id')
    .action(async (o) => print({ token: await fullIdentity().issueToken(o.user) }));

  program
    .command('revoke-token')
    .description('revoke an API token')
    .requiredOption('--token <token>', 'the token')
    .action(async (o) => {
      if (!(await fullIdentity().revokeToken(o.token))) throw new Error('no such token');
      print({ revoked: true });
    });

  program
    .command('create-team')
    .description('create a team; the owner becomes its first member')
    .requiredOption('--owner <id>', 'owner user id')
    .requiredOption('--path <path>', 'unique team path', pathArg)
    .requiredOption('--name <name>', 'team name', nonEmpty)
    .option('--visibility <v>', 'public or private', visibility, 'private')
    .option('--description <text>', 'description')
    .action(async (o) =>
      print(
        await fullIdentity().createTeam({
          ownerId: o.owner,
          path: o.path,
          name: o.name,
          visibility: o.visibility,
          description: o.description,
        }),
      ),
    );

  program
    .command('add-member')
    .description('add a user to a team')
    .requiredOption('--team <path>', 'team path')
    .requiredOption('--user <id>', 'user id')
    .action(async (o) => {
      await fullIdentity().addMember(o.team, o.user);
      print({ team: o.team, user: o.user, member: true });
    });

  program
    .command('grant-role')
    .description('grant a role to a user')
    .requiredOption('--user <id>', 'user id')
    .requiredOption('--role <role>', 'role (admin)', (v) => {
      if (v !== 'admin') throw new InvalidArgumentError('the only role is admin');
      return v as 'admin';
    })
    .action(async (o) => {
      await fullIdentity().grantRole(o.user, o.role);
      print({ user: o.user, role: o.role, granted: true });
    });

  program
    .command('seed')
    .description(
      'load demo data (users, a team, notes, news, transfers, an OTP factor) once and print credentials',
    )
    .action(async () => print(await seedDemo(demoStateFile())));
}
