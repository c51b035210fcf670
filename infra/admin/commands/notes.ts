// Notes admin commands: list, create, show and delete notes and read history on behalf of a user
// (through the same domain service as the API, so the same permission rules apply).
import { InvalidArgumentError, type Command } from 'commander';
import { presentNote, presentSingleNote } from '../../../lib/notes/kernel/present.ts';
import { fullNotes } from '../../../lib/notes/wiring.ts';
import { trashSweeper } from '../../../lib/notes/trash/wiring.ts';
import { print } from '../print.ts';

const noteRef = (v: string) => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(v)) throw new InvalidArgumentError('a note id or shortId');
  return v;
};
const limit = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError('an integer from 1 to 1000');
  return n;
};

export function registerNotesCommands(program: Command): void {
  program
    .command('list-notes')
    .description("list a user's personal notes, or a team's notes (as one of its members)")
    .requiredOption('--user <id>', 'user id (owner, or a member of --team)')
    .option('--team <path>', 'team path')
    .action(async (o) => {
      const list = o.team
        ? await fullNotes().listTeamNotes(o.user, o.team)
        : await fullNotes().listNotes(o.user);
      print(list.map((n) => presentNote(n)));
    });

  program
    .command('create-note')
    .description('create a note for a user (or in a team the user belongs to)')
    .requiredOption('--user <id>', 'user id')
    .option('--team <path>', 'team path')
    .option('--title <title>', 'explicit title')
    .option('--content <text>', 'content (markdown)', '')
    .action(async (o) => {
      print(
        presentSingleNote(
          await fullNotes().createNote(o.user, { title: o.title, content: o.content }, o.team),
        ),
      );
    });

  program
    .command('show-note')
    .description('show a note as the given user sees it (records a history entry)')
    .requiredOption('--user <id>', 'user id')
    .requiredOption('--note <ref>', 'note id or shortId', noteRef)
    .action(async (o) => {
      print(presentSingleNote(await fullNotes().getNote(o.user, o.note)));
    });

  program
    .command('delete-note')
    .description('move a note to the trash (restorable for the retention period), as the given user')
    .requiredOption('--user <id>', "user id (owner, or a member of the note's team)")
    .requiredOption('--note <ref>', 'note id or shortId', noteRef)
    .action(async (o) => {
      await fullNotes().deleteNote(o.user, o.note);
      print({ deleted: o.note });
    });

  program
    .command('note-history')
    .description("a user's note history, most recent first")
    .requiredOption('--user <id>', 'user id')
    .option('--limit <n>', 'at most n entries (1..1000)', limit, 1000)
    .action(async (o) => {
      print((await fullNotes().history(o.user, o.limit)).map((n) => presentNote(n)));
    });

  program
    .command('purge-trash')
    .description(
      'purge the trashed notes whose retention is over, images included (deployed: TTL + the table stream)',
    )
    .action(async () => {
      print({ purged: await trashSweeper().purgeDue() });
    });
}
