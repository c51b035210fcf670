// Permissions on create and update: write may not be broader than read, except that a
// writePermission sent alone widens read to match (HackMD's editor; hackmd-cli sends it alone).
import { describe, expect, it } from 'vitest';
import { Invalid } from '../../../lib/domain/errors.ts';
import { notesWorld } from './fixture.ts';

const roles = (n: { readPermission: string; writePermission: string }) => [
  n.readPermission,
  n.writePermission,
];

describe('NotesService permissions', () => {
  it('a create sending writePermission alone widens read to match', async () => {
    const w = await notesWorld();
    expect(roles((await w.notes.createNote(w.owner, { writePermission: 'signed_in' })).note)).toEqual([
      'signed_in',
      'signed_in',
    ]);
    expect(roles((await w.notes.createNote(w.owner, { writePermission: 'owner' })).note)).toEqual([
      'owner',
      'owner',
    ]);
  });

  it('an update sending writePermission alone widens read only when it must', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, {});
    expect(roles((await w.notes.updateNote(w.owner, note.id, { writePermission: 'guest' })).note)).toEqual([
      'guest',
      'guest',
    ]);
    expect(roles((await w.notes.updateNote(w.owner, note.id, { writePermission: 'owner' })).note)).toEqual([
      'guest',
      'owner',
    ]);
  });

  it('both sent, write broader than read: Invalid naming writePermission; read alone never narrows write', async () => {
    const w = await notesWorld();
    await expect(
      w.notes.createNote(w.owner, { readPermission: 'owner', writePermission: 'signed_in' }),
    ).rejects.toBeInstanceOf(Invalid);
    const { note } = await w.notes.createNote(w.owner, { writePermission: 'signed_in' });
    await expect(w.notes.updateNote(w.owner, note.id, { readPermission: 'owner' })).rejects.toBeInstanceOf(
      Invalid,
    );
  });
});
