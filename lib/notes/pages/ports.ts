// What note pages need from storage (./adapters/dynamo-pages.ts). A page first reads a note's
// metadata (a small item) to decide whether it may show it, and reads the content only then: a
// private note and an absent one cost the same reads (see the adapter).
import type { NoteWithContent } from '../kernel/model.ts';
import type { PageMeta } from './model.ts';

export interface PageSource {
  /** The metadata of the note with this shortId (not trashed), if any. */
  metaByShortId(shortId: string): Promise<PageMeta | undefined>;
  /**
   * The metadata of the note of the user or team with this path holding this permalink (not
   * trashed), if any: the same reads whether there is one or not.
   */
  metaByPermalink(ownerPath: string, permalink: string): Promise<PageMeta | undefined>;
  /** The note with this shortId and its content (not trashed), if any. */
  note(shortId: string): Promise<NoteWithContent | undefined>;
}
