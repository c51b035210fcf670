// Notes demo data: personal notes of the demo user (one readable by every signed-in user, with a
// permalink), notes of the demo team, and a history entry of Alice's.
import { notes as notesService } from '../../lib/notes/wiring.ts';
import type { SeedContext } from './context.ts';

export async function seedNotes(ctx: SeedContext): Promise<string[]> {
  const notes = notesService();
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
    `Notes: 3 personal notes of Demo User (shared one: ${shared.note.shortId}, readable by any ` +
      'signed-in user), ' +
      `2 notes in team ${ctx.teamPath} (e.g. ${plan.note.shortId})`,
  ];
}
