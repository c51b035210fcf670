import { MemoryNotesStore } from '../../lib/notes/adapters/memory-notes.ts';
import { notesContract } from './notes.ts';

notesContract('in memory', () => new MemoryNotesStore());
