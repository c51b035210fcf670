// One workspace's full-text index: MiniSearch (docs/search.md, "Engine": chosen by measurement), with
// this feature's terms (./text.ts). Title weighted above tags, tags above the body; BM25 ranking;
// every term must match, the last one as a prefix, and words of five letters or more within one edit.
// Each note's tags, folder and version are kept beside it, for filters and for comparing two indexes.
import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import type { Query } from './model.ts';
import { plainText, termsOf } from './text.ts';

/** A note as the index holds it. */
export interface IndexedNote {
  shortId: string;
  title: string;
  tags: string[];
  content: string;
  parentFolderId: string | null;
  version: number;
}

interface Doc {
  id: string;
  title: string;
  tags: string[];
  text: string;
  folderId: string | null;
  version: number;
}

export interface Candidate {
  shortId: string;
  score: number;
  /** The indexed terms the query matched (prefix and one-edit matches included). */
  matched: string[];
}

export const BOOST = { title: 4, tags: 2, text: 1 };
/** Words at least this long also match within one edit. */
export const FUZZY_MIN_LENGTH = 5;

const options: Options<Doc> = {
  fields: ['title', 'tags', 'text'],
  storeFields: ['tags', 'folderId', 'version'],
  extractField: (doc: Doc, field: string) => {
    const value = doc[field as keyof Doc];
    return Array.isArray(value) ? value.join('\n') : (value as string);
  },
  tokenize: termsOf,
  processTerm: (term: string) => term,
  // No vacuuming in the background (it would run on after a function returned, and on an index
  // being changed): the indexer compacts before it saves (compact()).
  autoVacuum: false,
};
/** Share of discarded entries at which compact() cleans the index. */
const DIRT_FACTOR = 0.1;

export class NoteIndex {
  private constructor(private readonly ms: MiniSearch<Doc>) {}

  static empty(): NoteIndex {
    return new NoteIndex(new MiniSearch<Doc>(options));
  }

  static fromJSON(json: string): NoteIndex {
    return new NoteIndex(MiniSearch.loadJSON<Doc>(json, options));
  }

  toJSON(): string {
    return JSON.stringify(this.ms);
  }

  get size(): number {
    return this.ms.documentCount;
  }

  upsert(note: IndexedNote): void {
    const doc: Doc = {
      id: note.shortId,
      title: note.title,
      tags: note.tags,
      text: plainText(note.content),
      folderId: note.parentFolderId,
      version: note.version,
    };
    if (this.ms.has(doc.id)) this.ms.replace(doc);
    else this.ms.add(doc);
  }

  /** Drops the entries of replaced and removed notes once they are a tenth of the index. */
  async compact(): Promise<void> {
    if (this.ms.dirtFactor >= DIRT_FACTOR) await this.ms.vacuum({ batchWait: 0 });
  }

  remove(shortId: string): void {
    if (this.ms.has(shortId)) this.ms.discard(shortId);
  }

  /** The version of each note indexed (an index equals another when these are equal). */
  versions(): Map<string, number> {
    const out = new Map<string, number>();
    // Each document's stored fields: the index's own record of what it holds.
    for (const r of this.ms.search(MiniSearch.wildcard)) out.set(String(r.id), Number(r.version));
    return out;
  }

  /** Notes matching every term (ranked best first), with the tag and folder given. */
  search(query: Query, filter: { tag?: string; folderId?: string } = {}): Candidate[] {
    if (query.terms.length === 0) return [];
    const last = query.terms.length - 1;
    // One query string of the terms (re-tokenizing a term gives the term), so `i` is its place.
    const results = this.ms.search(query.terms.join(' '), {
      combineWith: 'AND',
      boost: BOOST,
      prefix: (_term, i) => i === last,
      fuzzy: (term) => (term.length >= FUZZY_MIN_LENGTH ? 1 : 0),
      // An edit distance of 1 is the fuzzy function's whole budget: never more.
      maxFuzzy: 1,
      filter: (r: SearchResult) =>
        (filter.tag === undefined || (r.tags as string[]).includes(filter.tag)) &&
        (filter.folderId === undefined || r.folderId === filter.folderId),
    });
    return results.map((r) => ({ shortId: String(r.id), score: r.score, matched: r.terms }));
  }
}
