// Finds the note a page shows: by its address, and only if anonymous readers may see it.
import type { NoteWithContent } from '../kernel/model.ts';
import { type PageAddress, visible } from './model.ts';
import type { PageSource } from './ports.ts';

export class PageService {
  constructor(private readonly source: PageSource) {}

  async find(address: PageAddress | undefined): Promise<NoteWithContent | undefined> {
    if (!address) return undefined;
    const found =
      address.kind === 'short'
        ? await this.source.byShortId(address.shortId)
        : await this.source.byPermalink(address.ownerPath, address.permalink);
    return visible(found);
  }
}
