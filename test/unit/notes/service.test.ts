import { describe, expect, it } from 'vitest';
import {
  Conflict,
  Forbidden,
  Invalid,
  NotFound,
  PreconditionFailed,
  TooLarge,
  Unsupported,
} from '../../../lib/domain/errors.ts';
import { MAX_CONTENT_BYTES } from '../../../lib/notes/kernel/model.ts';
import { notesWorld, PNG, START_MS } from './fixture.ts';

describe('NotesService', () => {
  it('titles a note by its first heading', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, { content: '# Plans\n\ntext' });
    expect(note.title).toBe('Plans');
  });

  it('keeps an explicit title over the heading', async () => {
    const w = await notesWorld();
    expect((await w.notes.createNote(w.owner, { title: 'Mine', content: '# Plans' })).note.title).toBe(
      'Mine',
    );
  });

  it('stamps a new note with the clock and the creator', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, {});
    expect(note).toMatchObject({
      createdAt: START_MS,
      lastChangedAt: START_MS,
      ownerId: w.owner,
      lastChangeUser: { name: 'Owner' },
    });
  });

  it('refuses content over the size limit', async () => {
    const w = await notesWorld();
    await expect(
      w.notes.createNote(w.owner, { content: 'x'.repeat(MAX_CONTENT_BYTES + 1) }),
    ).rejects.toBeInstanceOf(TooLarge);
  });

  it('refuses a writePermission broader than the readPermission', async () => {
    const w = await notesWorld();
    const create = w.notes.createNote(w.owner, { readPermission: 'owner', writePermission: 'signed_in' });
    await expect(create).rejects.toBeInstanceOf(Invalid);
  });

  it('hides a private note from other users as not found', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, {});
    await expect(w.notes.getNote(w.other, note.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('shows a note readable by signed-in users to others, by id or shortId', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, { readPermission: 'signed_in' });
    expect((await w.notes.getNote(w.other, note.shortId)).note.id).toBe(note.id);
  });

  it('lets a reader who may not write read but not change', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, { readPermission: 'signed_in' });
    await expect(w.notes.updateNote(w.other, note.id, { content: 'x' })).rejects.toBeInstanceOf(Forbidden);
  });

  it('lets only the owner change permissions', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, {
      readPermission: 'signed_in',
      writePermission: 'signed_in',
    });
    await expect(w.notes.updateNote(w.other, note.id, { readPermission: 'owner' })).rejects.toBeInstanceOf(
      Forbidden,
    );
  });

  it('bumps the version and the change time on a change', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, {});
    w.clock.advance(1000);
    const updated = await w.notes.updateNote(w.owner, note.id, { content: '# New' });
    expect(updated.note).toMatchObject({
      version: 2,
      lastChangedAt: START_MS + 1000,
      title: 'New',
      titleUpdatedAt: START_MS + 1000,
    });
  });

  it('leaves the note as it is when nothing changes', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, { content: 'same' });
    expect((await w.notes.updateNote(w.owner, note.id, { content: 'same' })).note.version).toBe(1);
  });

  it('refuses a change whose precondition no longer holds', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, {});
    const update = w.notes.updateNote(w.owner, note.id, { content: 'x' }, { precondition: () => false });
    await expect(update).rejects.toBeInstanceOf(PreconditionFailed);
  });

  it("refuses a permalink another of the owner's notes has, naming the field", async () => {
    const w = await notesWorld();
    await w.notes.createNote(w.owner, { permalink: 'home' });
    const second = w.notes.createNote(w.owner, { permalink: 'home' });
    await expect(second).rejects.toBeInstanceOf(Conflict);
    await expect(second).rejects.toMatchObject({ fields: [{ field: 'permalink' }] });
  });

  it('lists team notes only to members; an unknown team is not found', async () => {
    const w = await notesWorld();
    await w.identity.createTeam({ ownerId: w.owner, path: 'team', name: 'Team' });
    await w.notes.createNote(w.owner, {}, 'team');
    expect(await w.notes.listTeamNotes(w.owner, 'team')).toHaveLength(1);
    await expect(w.notes.listTeamNotes(w.other, 'team')).rejects.toBeInstanceOf(Forbidden);
    await expect(w.notes.listTeamNotes(w.owner, 'nope')).rejects.toBeInstanceOf(NotFound);
  });

  it('lets any team member manage a team note', async () => {
    const w = await notesWorld();
    await w.identity.createTeam({ ownerId: w.owner, path: 'team', name: 'Team' });
    await w.identity.addMember('team', w.other);
    const { note } = await w.notes.createNote(w.owner, {}, 'team');
    await w.notes.deleteNote(w.other, note.id, 'team');
    await expect(w.notes.getNote(w.owner, note.id)).rejects.toBeInstanceOf(NotFound);
  });

  it("records reads in the reader's history, most recent first", async () => {
    const w = await notesWorld();
    const [a, b] = [
      await w.notes.createNote(w.owner, { readPermission: 'signed_in' }),
      await w.notes.createNote(w.owner, { readPermission: 'signed_in' }),
    ];
    await w.notes.getNote(w.other, a.note.id);
    w.clock.advance(1000);
    await w.notes.getNote(w.other, b.note.id);
    expect((await w.notes.history(w.other, 10)).map((n) => n.id)).toEqual([b.note.id, a.note.id]);
  });

  it('stores an uploaded PNG and returns its public link', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, {});
    const link = await w.notes.uploadImage(w.owner, note.id, PNG);
    expect(link).toMatch(new RegExp(`^https://img.test/notes/${note.id}/.+\\.png$`));
  });

  it('refuses an upload that is not an image', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, {});
    await expect(w.notes.uploadImage(w.owner, note.id, Buffer.from('hello'))).rejects.toBeInstanceOf(
      Unsupported,
    );
  });

  it('moves a deleted note to the bin: 404 from then on, its images kept (restorable)', async () => {
    const w = await notesWorld();
    const { note } = await w.notes.createNote(w.owner, {});
    await w.notes.uploadImage(w.owner, note.id, PNG);
    await w.notes.deleteNote(w.owner, note.id);
    await expect(w.notes.getNote(w.owner, note.id)).rejects.toBeInstanceOf(NotFound);
    expect(w.images.objects.size).toBe(1);
  });
});
