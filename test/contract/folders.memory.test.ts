import { MemoryFolderStore } from '../../lib/notes/folders/adapters/memory-folders.ts';
import type { NoteRecord } from '../../lib/notes/kernel/model.ts';
import { foldersContract } from './folders.ts';

foldersContract('in memory', () => {
  const store = new MemoryFolderStore();
  return {
    store,
    placeNote: async (owner, folderId) => store.placeNote(owner, { parentFolderId: folderId } as NoteRecord),
  };
});
