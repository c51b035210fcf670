// Finds the note a page shows: by its address, and only if anonymous readers may see it. Whether
// they may is decided from the note's metadata alone, before its content is read: a private note
// costs the same reads (and time) as no note at all, so a page never tells one from the other. The
// content is read only when the page is rendered (not for a 304, nor a page this instance keeps).
import { isPublic, type PageAddress, type PageMeta, type PublicNote, visible } from './model.ts';
import type { PageSource } from './ports.ts';

export class PageService {
  constructor(private readonly source: PageSource) {}

  async find(address: PageAddress | undefined): Promise<PublicNote | undefined> {
    if (!address) return undefined;
    const meta: PageMeta | undefined =
      address.kind === 'short'
        ? await this.source.metaByShortId(address.shortId)
        : await this.source.metaByPermalink(address.ownerPath, address.permalink);
    if (!meta || !isPublic(meta)) return undefined;
    // Read again with the content: the note may have changed, or gone private, meanwhile.
    return { note: meta, withContent: async () => visible(await this.source.note(meta.shortId)) };
  }
}
