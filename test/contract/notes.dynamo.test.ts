// Needs DynamoDB Local (started by `npm test`'s global setup).
import { DynamoNotesStore } from '../../lib/notes/notes/adapters/dynamo-notes.ts';
import { notesContract } from './notes.ts';

notesContract('DynamoDB', () => new DynamoNotesStore());
