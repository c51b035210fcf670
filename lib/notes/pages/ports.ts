// What note pages need from storage (./adapters/dynamo-pages.ts).
import type { NoteWithContent } from '../kernel/model.ts';

export interface PageSource {
  /** The note with this shortId (not trashed), if any. */
  byShortId(shortId: string): Promise<NoteWithContent | undefined>;
  /** The note of the user or team with this path holding this permalink (not trashed), if any. */
  byPermalink(ownerPath: string, permalink: string): Promise<NoteWithContent | undefined>;
}
