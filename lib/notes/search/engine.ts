// One segment of a workspace's full-text index: MiniSearch (docs/search.md, "Engine": chosen by
// measurement), with this feature's terms (./text.ts). Title weighted above tags, tags above the body;
// BM25 ranking; every term must match, the last one also as a prefix, and words of five letters or
// more within one edit. Each note's tags, folder and version are kept beside it, for filters and for
// comparing two indexes.
// A prefix is expanded by the index's own vocabulary (its terms sorted, as the serialized segment
// keeps them, with each term's count of notes): to the most common words that start with it, at most
// MAX_PREFIX_EXPANSIONS and at most PREFIX_POSTINGS notes' worth of postings. An unbounded expansion
// (MiniSearch's `prefix`) of a short prefix over a large vocabulary is the slowest query there is
// (every completion's postings scored); the most common completions are the ones a reader typing a
// word most likely means, and the bound keeps a pathological query cheap.
import MiniSearch, {
  type AsPlainObject,
  type Options,
  type Query as MsQuery,
  type SearchResult,
} from 'minisearch';
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
/** Words a prefix expands to, at most (the most common in the segment first). */
export const MAX_PREFIX_EXPANSIONS = 16;
/**
 * The notes holding a prefix's expansions, summed, at most this many times the segment's notes (the
 * most common expansion is always taken): a query's cost is the postings it scores, and a prefix of
 * common words would otherwise score several times every note's.
 */
export const PREFIX_POSTINGS = 1;
/** MiniSearch's own weight of a prefix match (its default `weights.prefix`), applied to expansions. */
const PREFIX_WEIGHT = 0.375;

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

/** The segment's terms, sorted (UTF-16 order), with how many notes hold each. */
interface Vocabulary {
  terms: string[];
  counts: number[];
}

/** One term's postings: for each field, the notes (MiniSearch's own ids) and the term's frequency in each. */
type Postings = [term: string, fields: [field: number, notes: number[], frequencies: number[]][]];

/**
 * The serialized form: MiniSearch's own (`toJSON`) without its postings, and the postings beside it,
 * sorted by term, as arrays of numbers. Loading it is twice as fast as MiniSearch's `loadJSON`, whose
 * postings are objects keyed by note id (each key read as a string and parsed) — measured on the
 * 16 segments of a 10,000-note workspace: 0.9 s against 1.8 s of CPU, and 18 % smaller; saving it
 * reads the term index once into arrays, 5 times faster than `toJSON`'s objects (80 ms against
 * 440 ms for a segment of 625 notes).
 */
interface Serialized {
  index: AsPlainObject;
  postings: Postings[];
}

/** Field → note → frequency: one term's entry in MiniSearch's term index. */
type TermFields = Map<number, Map<number, number>>;

/**
 * MiniSearch's term index, which its types keep private: term → field → note → frequency.
 * `MiniSearch.loadJS` (7.2.0, pinned) fills it the same way, from the objects of its own format, and
 * `toJSON` reads it the same way, into those objects.
 */
interface TermIndex {
  _index: Iterable<[string, TermFields]> & { set(term: string, fields: TermFields): void };
}

const byTerm = (a: Postings, b: Postings) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The postings of a term index, sorted by term. */
function postingsOf(index: TermIndex['_index']): Postings[] {
  const out: Postings[] = [];
  for (const [term, fields] of index)
    out.push([term, [...fields].map(([field, notes]) => [field, [...notes.keys()], [...notes.values()]])]);
  return out.sort(byTerm);
}

/** The vocabulary of postings sorted by term: a term's count is its notes in the field that has most. */
const vocabularyOf = (postings: Postings[]): Vocabulary => ({
  terms: postings.map((p) => p[0]),
  counts: postings.map((p) => Math.max(0, ...p[1].map((f) => f[1].length))),
});

/** The first index of `terms` (sorted) not below `term`. */
function lowerBound(terms: string[], term: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid] < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class NoteIndex {
  private vocabulary: Vocabulary | undefined;

  private constructor(
    private readonly ms: MiniSearch<Doc>,
    vocabulary?: Vocabulary,
  ) {
    this.vocabulary = vocabulary;
  }

  static empty(): NoteIndex {
    return new NoteIndex(new MiniSearch<Doc>(options));
  }

  static fromJSON(json: string): NoteIndex {
    const data = JSON.parse(json) as Serialized;
    const ms = MiniSearch.loadJS<Doc>(data.index, options);
    const index = (ms as unknown as TermIndex)._index;
    for (const [term, fields] of data.postings) {
      const byField = new Map<number, Map<number, number>>();
      for (const [field, notes, frequencies] of fields) {
        const byNote = new Map<number, number>();
        for (let i = 0; i < notes.length; i += 1) byNote.set(notes[i], frequencies[i]);
        byField.set(field, byNote);
      }
      index.set(term, byField);
    }
    return new NoteIndex(ms, vocabularyOf(data.postings));
  }

  toJSON(): string {
    // MiniSearch's own form of everything but the term index (its objects cost more than the rest of
    // a save: the term index is read once, into arrays, instead).
    const internal = this.ms as unknown as TermIndex;
    const terms = internal._index;
    internal._index = new Map() as unknown as TermIndex['_index'];
    let index: AsPlainObject;
    try {
      index = this.ms.toJSON();
    } finally {
      internal._index = terms;
    }
    const out: Serialized = { index, postings: postingsOf(terms) };
    return JSON.stringify(out);
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
    this.vocabulary = undefined;
    if (this.ms.has(doc.id)) this.ms.replace(doc);
    else this.ms.add(doc);
  }

  /** Drops the entries of replaced and removed notes once they are a tenth of the index. */
  async compact(): Promise<void> {
    if (this.ms.dirtFactor >= DIRT_FACTOR) await this.ms.vacuum({ batchWait: 0 });
  }

  remove(shortId: string): void {
    if (!this.ms.has(shortId)) return;
    this.vocabulary = undefined;
    this.ms.discard(shortId);
  }

  /** The version of each note indexed (an index equals another when these are equal). */
  versions(): Map<string, number> {
    const out = new Map<string, number>();
    // Each document's stored fields: the index's own record of what it holds.
    for (const r of this.ms.search(MiniSearch.wildcard)) out.set(String(r.id), Number(r.version));
    return out;
  }

  /** The words `prefix` expands to: the most common ones of the segment that start with it. */
  expansions(prefix: string): string[] {
    this.vocabulary ??= vocabularyOf(postingsOf((this.ms as unknown as TermIndex)._index));
    const { terms, counts } = this.vocabulary;
    const found: number[] = [];
    for (let i = lowerBound(terms, prefix); i < terms.length && terms[i].startsWith(prefix); i += 1)
      if (terms[i] !== prefix) found.push(i);
    found.sort((a, b) => counts[b] - counts[a] || a - b);
    // Each expansion's postings are scored: they may hold up to PREFIX_POSTINGS × the segment's notes.
    const out: string[] = [];
    let postings = 0;
    for (const i of found) {
      if (
        out.length === MAX_PREFIX_EXPANSIONS ||
        (out.length && postings + counts[i] > PREFIX_POSTINGS * this.size)
      )
        break;
      out.push(terms[i]);
      postings += counts[i];
    }
    return out;
  }

  /** Notes matching every term (ranked best first), with the tag and folder given. */
  search(query: Query, filter: { tag?: string; folderId?: string } = {}): Candidate[] {
    if (query.terms.length === 0) return [];
    const last = query.terms.at(-1)!;
    const fuzzy = (term: string) => (term.length >= FUZZY_MIN_LENGTH ? 1 : 0);
    // The last term: itself (within one edit) or one of its expansions, each weighted as MiniSearch
    // weights a prefix match. A query string of terms is re-tokenized into the same terms.
    const expanded = this.expansions(last);
    const lastQuery: MsQuery = expanded.length
      ? {
          combineWith: 'OR',
          queries: [
            last,
            {
              queries: [expanded.join(' ')],
              fuzzy: false,
              boostTerm: (term: string) =>
                (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * (term.length - last.length)),
            },
          ],
        }
      : last;
    const results = this.ms.search(
      {
        combineWith: 'AND',
        queries: [...query.terms.slice(0, -1), lastQuery],
      },
      {
        boost: BOOST,
        fuzzy,
        // An edit distance of 1 is the fuzzy function's whole budget: never more.
        maxFuzzy: 1,
        filter: (r: SearchResult) =>
          (filter.tag === undefined || (r.tags as string[]).includes(filter.tag)) &&
          (filter.folderId === undefined || r.folderId === filter.folderId),
      },
    );
    return results.map((r) => ({ shortId: String(r.id), score: r.score, matched: r.terms }));
  }
}
