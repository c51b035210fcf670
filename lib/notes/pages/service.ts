// Finds the note a page shows: by its address, and only if anonymous readers may see it. Whether
// they may is decided from the note's metadata alone, before its content is read: a private note
// costs the same reads (and time) as no note at all, so a page never tells one from the other.
import type { NoteWithContent } from '../kernel/model.ts';
import { isPublic, type PageAddress, visible } from './model.ts';
import type { PageSource } from './ports.ts';

export class PageService {
  constructor(private readonly source: PageSource) {}

  async find(address: PageAddress | undefined): Promise<NoteWithContent | undefined> {
    if (!address) return undefined;
    const meta =
      address.kind === 'short'
        ? await this.source.metaByShortId(address.shortId)
        : await this.source.metaByPermalink(address.ownerPath, address.permalink);
    // The note read again with its content (it may have changed, or gone private, meanwhile).
    return meta && isPublic(meta) ? visible(await this.source.note(meta.shortId)) : undefined;
  }
}
