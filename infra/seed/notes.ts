// Notes demo data: personal notes of the demo user (one readable by every signed-in user, with a
// permalink; one public, whose page shows the markdown HackMD's way), notes of the demo team, and a
// history entry of Alice's.
import { fullNotes } from '../../lib/notes/wiring.ts';
import type { SeedContext } from './context.ts';

export async function seedNotes(ctx: SeedContext): Promise<string[]> {
  const notes = fullNotes();
  const { demo, alice } = ctx;
  await notes.createNote(demo.id, {
    content: '# Welcome\n\nThis is your first note. Edit it with PATCH /v1/notes/{noteId}.',
    tags: ['demo'],
  });
  await notes.createNote(demo.id, {
    title: 'Groceries',
    content: '- milk\n- bread\n- coffee',
    tags: ['todo'],
  });
  const shared = await notes.createNote(demo.id, {
    content:
      '# Team handbook draft\n\nReadable by anyone signed in; Bob may read it, only Demo User may edit.',
    readPermission: 'signed_in',
    writePermission: 'owner',
    permalink: 'handbook',
    description: 'shared with every signed-in user',
  });
  // Readable by anyone, signed in or not: its publishLink opens a page (docs/notes.md, Note pages).
  await notes.createNote(demo.id, {
    content: DEMO_PAGE,
    readPermission: 'guest',
    writePermission: 'owner',
    permalink: DEMO_PAGE_PERMALINK,
    description: 'a public note: open its publishLink in a browser',
  });
  const plan = await notes.createNote(
    alice.id,
    { content: '# Sprint plan\n\n1. ship notes\n2. ship news', tags: ['planning'] },
    ctx.teamPath,
  );
  await notes.createNote(
    demo.id,
    {
      content: '# Meeting notes\n\n- decided to use DynamoDB',
      readPermission: 'signed_in',
      writePermission: 'signed_in',
    },
    ctx.teamPath,
  );
  await notes.getNote(alice.id, shared.note.id);
  return [
    `Notes: 4 personal notes of Demo User (one public: its page is ` +
      `/@${demo.userPath}/${DEMO_PAGE_PERMALINK});  (shared one: ${shared.note.shortId}, readable by any ` +
      'signed-in user), ' +
      `2 notes in team ${ctx.teamPath} (e.g. ${plan.note.shortId})`,
  ];
}

/** The permalink of the demo's public note: its page is /@<demo userPath>/<this>. */
export const DEMO_PAGE_PERMALINK = 'welcome';

const DEMO_PAGE = [
  '# Welcome to the demo notes',
  '###### tags: `demo` `public`',
  '',
  '[TOC]',
  '',
  '## What this page is',
  'A note whose readPermission is **guest** has a read-only page at its `publishLink`.',
  'Any other note answers the same 404.',
  '',
  '## Checklist',
  '- [x] write the note in markdown',
  '- [ ] share its link',
  '',
  '## A table',
  '| feature | rendered |',
  '|:--------|:--------:|',
  '| task lists | yes |',
  '| footnotes | yes[^1] |',
  '',
  '## Some code',
  '```ts',
  "const greeting: string = 'hello';",
  'console.log(greeting);',
  '```',
  '',
  '[^1]: Like this one.',
].join('\n');
