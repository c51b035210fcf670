import { memoryCommentStore } from '../../lib/notes/revisions/adapters/memory-comments.ts';
import { memoryVersionStore } from '../../lib/notes/revisions/adapters/memory-versions.ts';
import { commentsContract, versionsContract } from './revisions.ts';

versionsContract('in memory', memoryVersionStore);
commentsContract('in memory', memoryCommentStore);
