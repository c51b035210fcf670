import { MemoryNotesStore } from '../../lib/notes/notes/adapters/memory-notes.ts';
import { notesContract } from './notes.ts';

notesContract('in memory', () => new MemoryNotesStore());
