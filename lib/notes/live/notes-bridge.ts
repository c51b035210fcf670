// The Notes service seen through LiveNotes (what live editing asks of notes), and the REST side's
// ContentListener that hands REST content changes to the live documents.
import { NotFound } from '../../domain/errors.ts';
import type { ContentListener } from '../kernel/ports.ts';
import type { NotesService } from '../notes/service.ts';
import type { LiveNotes } from './ports.ts';
import type { LiveService } from './service.ts';

export const liveNotesOf = (notes: () => NotesService): LiveNotes => ({
  async open(userId, ref, teamPath) {
    const { stored, access } = await notes().openNote(userId, ref, teamPath);
    return { id: stored.note.id, shortId: stored.note.shortId, teamPath: stored.note.teamPath, access };
  },
  async access(userId, shortId) {
    try {
      return (await notes().openNote(userId, shortId)).access;
    } catch (err) {
      if (err instanceof NotFound) return undefined;
      throw err;
    }
  },
  content: (shortId) => notes().startLive(shortId),
  saveContent: (shortId, content, editorId, restVersion) =>
    notes().saveLiveContent(shortId, content, editorId, restVersion),
});

/** Only a note marked live (NoteRecord.live) has a document to read and change. */
export const restToLive = (live: () => LiveService): ContentListener => ({
  contentChanged: async (note, before, after, editorId) => {
    if (note.live) await live().restChanged(note.shortId, before, after, editorId, note.version);
  },
});
