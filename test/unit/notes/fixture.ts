// The Notes domain over in-memory adapters (notes, images, identity) and a fixed clock.
import { FixedClock } from '../../../lib/domain/clock.ts';
import { sequentialIds } from '../../../lib/domain/ids.ts';
import {
  MemoryIdentityTables,
  MemoryTeamStore,
  MemoryTokenStore,
  MemoryUserStore,
} from '../../../lib/identity/adapters/memory-identity.ts';
import { IdentityService } from '../../../lib/identity/service.ts';
import { MemoryImageStore } from '../../../lib/notes/images/adapters/memory-images.ts';
import { MemoryNotesStore } from '../../../lib/notes/notes/adapters/memory-notes.ts';
import type { ContentHistory, ContentListener } from '../../../lib/notes/kernel/ports.ts';
import { NotesService } from '../../../lib/notes/notes/service.ts';
import { signatureImages } from '../../../lib/notes/images/adapters/signature-images.ts';

export const START_MS = 1_800_000_000_000;

/** `history`: what sees content changes through (the versions), when a test wires one. */
export async function notesWorld(opts: { history?: ContentHistory; contentListener?: ContentListener } = {}) {
  const clock = new FixedClock(START_MS);
  const t = new MemoryIdentityTables();
  const identity = new IdentityService(
    { users: new MemoryUserStore(t), teams: new MemoryTeamStore(t), tokens: new MemoryTokenStore(t) },
    clock,
    sequentialIds(),
  );
  const images = new MemoryImageStore();
  const store = new MemoryNotesStore(() => clock.now());
  // DeleteNote's bin: the note leaves the store (404 everywhere); its images stay (restorable). The
  // trash itself (restore, purge) is tested against DynamoDB in test/notes/trash.test.ts.
  const bin = {
    moveToTrash: async (stored: Parameters<typeof store.deleteNote>[0]) => {
      await store.deleteNote(stored);
      return true;
    },
  };
  const notes = new NotesService({
    store,
    images,
    imageTypes: signatureImages,
    directory: identity,
    clock,
    ids: sequentialIds(1000),
    imageUrl: (key) => `https://img.test/${key}`,
    bin,
    history: opts.history,
    contentListener: opts.contentListener,
  });
  const [owner, other] = [
    await identity.createUser({ name: 'Owner' }),
    await identity.createUser({ name: 'Other' }),
  ];
  return { clock, identity, images, notes, store, owner: owner.id, other: other.id };
}

/** The smallest PNG: its signature, an IHDR and an IDAT chunk. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001' +
    '0d0a2db40000000049454e44ae426082',
  'hex',
);
