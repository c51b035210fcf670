// The live mark (NoteRecord.live) over in-memory adapters: a REST content change reads the note's
// live document only once live editing has marked the note, which it does before creating one.
import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import * as sync from 'y-protocols/sync';
import * as Y from 'yjs';
import { sequentialIds } from '../../../lib/domain/ids.ts';
import {
  MemoryConnections,
  MemoryDocs,
  MemoryTickets,
  MemoryTokens,
  RecordingPeers,
} from '../../../lib/notes/live/adapters/memory-live.ts';
import { LiveDoor } from '../../../lib/notes/live/door.ts';
import { liveNotesOf, restToLive } from '../../../lib/notes/live/notes-bridge.ts';
import { LiveService } from '../../../lib/notes/live/service.ts';
import { notesWorld } from './fixture.ts';

/** The in-memory documents, counting the reads of a document (what a REST change would bill). */
class CountingDocs extends MemoryDocs {
  loads = 0;
  override async load(shortId: string) {
    this.loads += 1;
    return super.load(shortId);
  }
}

describe('live editing: the live mark', () => {
  it('a REST change of a note never edited live reads no document; once a client joined, it reaches it', async () => {
    let live: LiveService | undefined;
    const w = await notesWorld({ contentListener: restToLive(() => live!) });
    const docs = new CountingDocs();
    const connections = new MemoryConnections();
    live = new LiveService({
      connections,
      docs,
      peers: new RecordingPeers(),
      notes: liveNotesOf(() => w.notes),
    });
    const door = new LiveDoor({
      tickets: new MemoryTickets(),
      connections,
      tokens: new MemoryTokens(),
      notes: liveNotesOf(() => w.notes),
      clock: w.clock,
      ids: sequentialIds(7000),
      url: () => 'ws://localhost:3000/_live',
    });
    const { note } = await w.notes.createNote(w.owner, { content: 'alpha beta' });
    await w.notes.updateNote(w.owner, note.id, { content: 'alpha BETA' });
    expect(docs.loads).toBe(0);
    expect((await w.store.getNote(note.shortId))?.note.live).toBeUndefined();

    // A client joins: its first message creates the document, the note marked live first.
    const opening = await door.open({ userId: w.owner, tokenHash: 'token-of-owner' }, note.id);
    await door.connect('c1', new URL(opening.url).searchParams.get('ticket')!);
    const step1 = encoding.createEncoder();
    encoding.writeVarUint(step1, 0);
    sync.writeSyncStep1(step1, new Y.Doc());
    await live.receive('c1', Buffer.from(encoding.toUint8Array(step1)).toString('base64'));
    expect((await w.store.getNote(note.shortId))?.note.live).toBe(true);
    expect(docs.docs.has(note.shortId)).toBe(true);

    const before = docs.loads;
    await w.notes.updateNote(w.owner, note.id, { content: 'alpha BETA gamma' });
    expect(docs.loads).toBe(before + 1);
    expect(docs.docs.get(note.shortId)?.updates.length).toBeGreaterThan(0);
  });
});
