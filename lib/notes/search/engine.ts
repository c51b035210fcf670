// One segment of a workspace's full-text index: an SQLite database with an FTS5 table (docs/search.md,
// "Engine": chosen by measurement), of this feature's terms (./text.ts). A serialized segment is the
// database file itself: loading it is a copy into the engine's memory, with nothing to parse or
// rebuild, which is what makes a cold search of a large workspace fast.
// Title weighted above tags, tags above the body; BM25 ranking (FTS5's bm25()); every word must
// match, a word of five letters or more also within one edit, the last word also as a prefix; a
// quoted phrase as a phrase (FTS5 keeps each term's positions). Each note's folder, tags and version
// are kept beside it, for filters and for comparing two indexes.
// A prefix is expanded by the segment's own vocabulary (FTS5's fts5vocab): to the words that start
// with it held by the most notes, at most MAX_PREFIX_EXPANSIONS and at most PREFIX_POSTINGS notes'
// worth of postings, so a short prefix costs no more than a common word. One-edit matches of a word
// are the words that share its first half or its second half: a range of the `words` table (every
// word of four letters or more the segment has held since it was built) or of the `reversed` table
// (the same words written backwards). Those two are plain tables, read as fast as any index;
// FTS5's own vocabulary counts each word's notes as it reads it, 10 times slower for a range this
// size. A word no note holds any more matches nothing: it costs a lookup, never a wrong hit.
// A misspelling stands for at most MAX_NEIGHBOURS of its neighbours, the ones most notes hold, found
// among the first NEIGHBOUR_SCAN words of each range; a whole query's expression has at most
// MAX_QUERY_ALTERNATIVES terms; and its matching at most MAX_SEARCH_STEPS of SQLite's virtual
// machine's steps over all the segments searched (sqlite3_progress_handler interrupts it past them;
// the caller gets a 400, never a search that runs on). Each OR alternative costs FTS5 a posting
// list and ranking a phrase per row: 20,000 neighbours of one misspelled word took 10 s to match
// (docs/search.md, "Bounded").
import type { Database, PreparedStatement, SqlValue, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { BadInput } from '../../domain/errors.ts';
import type { Query } from './model.ts';
import { sqlite } from './sqlite.ts';
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

export interface Candidate {
  shortId: string;
  /** Higher is better (FTS5's bm25, negated). */
  score: number;
}

export interface Found {
  /** The best `want` candidates, best first. */
  candidates: Candidate[];
  /** How many notes match in all. */
  total: number;
  /** The indexed terms the query may have matched (its words, their one-edit and prefix expansions). */
  matched: string[];
}

export const BOOST = { title: 4, tags: 2, text: 1 };
/** Words at least this long also match within one edit. */
export const FUZZY_MIN_LENGTH = 5;
/** Words a prefix expands to, at most (the ones most notes hold first). */
export const MAX_PREFIX_EXPANSIONS = 8;
/**
 * The notes holding a prefix's expansions, summed, at most this many times the segment's notes (the
 * most common expansion is always taken): a query's cost is the postings it reads, and a prefix of
 * common words would otherwise read several times every note's.
 */
export const PREFIX_POSTINGS = 1;
/** One-edit neighbours a misspelled word stands for, at most (the ones most notes hold first). */
export const MAX_NEIGHBOURS = 8;
/** Words of the vocabulary read per range (`words`, `reversed`) in looking for a word's neighbours. */
export const NEIGHBOUR_SCAN = 2000;
/**
 * Neighbours whose notes are counted (FTS5's vocabulary, up to 1 ms a word in a large segment), per
 * word and segment, and per query over all its words and segments: a misspelling's neighbours are
 * ranked among the first NEIGHBOUR_COUNTS found. A real vocabulary has a handful of neighbours per
 * word; the bound is for a vocabulary made to have thousands.
 */
export const NEIGHBOUR_COUNTS = 64;
export const QUERY_NEIGHBOUR_COUNTS = 256;
/** Terms of a query's whole FTS5 expression, at most: its words, their neighbours, its prefix's completions. */
export const MAX_QUERY_ALTERNATIVES = 64;
/**
 * SQLite virtual-machine steps the matching of one search may take over all its segments (counted by
 * sqlite3_progress_handler, every PROGRESS_EVERY steps): a word every note holds costs about 20 steps
 * a note (40,000 for 2,000 notes, measured), so this is 25 times that in a workspace of 10,000 notes.
 * The work FTS5 does inside one step (reading a term's postings) is bounded by the caps on terms above.
 */
export const MAX_SEARCH_STEPS = 5_000_000;
const PROGRESS_EVERY = 1000;

/** The steps a search has left, shared by every segment it matches (NoteIndex.match). */
export class StepBudget {
  constructor(public left = MAX_SEARCH_STEPS) {}
}

/**
 * The terms are this feature's (text.ts), joined by spaces: FTS5's unicode61 tokenizer only splits
 * them again (letters, digits and marks are word characters; accents are already folded).
 */
const SCHEMA = `
PRAGMA auto_vacuum = FULL;
CREATE VIRTUAL TABLE terms USING fts5(title, tags, body, content = '', contentless_delete = 1,
  tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'");
CREATE TABLE notes (id INTEGER PRIMARY KEY, short_id TEXT NOT NULL UNIQUE, folder TEXT, version INTEGER NOT NULL);
CREATE TABLE tags (tag TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (tag, id)) WITHOUT ROWID;
CREATE TABLE words (term TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE reversed (term TEXT PRIMARY KEY) WITHOUT ROWID;
`;
/** The vocabulary of the segment's FTS5 table (per connection, never saved). */
const VOCABULARY = "CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, terms, 'row')";

/** Above every term that starts with a given prefix (UTF-8 order, as SQLite compares text). */
const AFTER = '\u{10FFFF}';
const reverse = (s: string) => [...s].reverse().join('');
const quoted = (term: string) => `"${term}"`;

/** Whether a and b are equal or one edit apart (insert, delete or replace one character). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

export class NoteIndex {
  private readonly statements = new Map<string, PreparedStatement>();
  private notes: number;
  /** The budget of the search matching now (none: unbounded, for the indexer's own statements). */
  private budget: StepBudget | undefined;

  private constructor(
    private readonly db: Database,
    capi: Sqlite3Static['capi'],
  ) {
    db.exec(VOCABULARY);
    this.notes = Number(this.value('SELECT count(*) FROM notes'));
    // Non-zero interrupts the statement running (SQLITE_INTERRUPT): match() turns that into a 400.
    capi.sqlite3_progress_handler(
      db,
      PROGRESS_EVERY,
      () => {
        if (!this.budget) return 0;
        this.budget.left -= PROGRESS_EVERY;
        return this.budget.left < 0 ? 1 : 0;
      },
      0,
    );
  }

  static async empty(): Promise<NoteIndex> {
    const { oo1, capi } = await sqlite();
    const db = new oo1.DB(':memory:');
    db.exec(SCHEMA);
    return new NoteIndex(db, capi);
  }

  /** A segment from its saved bytes (toBytes). */
  static async fromBytes(bytes: Uint8Array): Promise<NoteIndex> {
    const { oo1, capi, wasm } = await sqlite();
    const db = new oo1.DB(':memory:');
    // The engine's own allocator (sqlite3_malloc), so SQLite frees the copy when it closes the database.
    const copy = wasm.allocFromTypedArray(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const rc = capi.sqlite3_deserialize(
      db,
      'main',
      copy,
      bytes.byteLength,
      bytes.byteLength,
      capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE,
    );
    try {
      if (rc !== capi.SQLITE_OK) throw new Error(`SQLite error ${capi.sqlite3_js_rc_str(rc)}`);
      return new NoteIndex(db, capi);
    } catch (err) {
      db.close();
      throw new Error(`not a search segment: ${(err as Error).message}`);
    }
  }

  /** The segment's database file. */
  async toBytes(): Promise<Uint8Array> {
    const { capi } = await sqlite();
    return capi.sqlite3_js_db_export(this.db);
  }

  /** Frees the segment's memory (the engine's, outside JavaScript's heap); the index is unusable after. */
  close(): void {
    for (const s of this.statements.values()) s.finalize();
    this.statements.clear();
    this.db.close();
  }

  get size(): number {
    return this.notes;
  }

  upsert(note: IndexedNote): void {
    const title = termsOf(note.title);
    const tags = note.tags.flatMap(termsOf);
    const body = termsOf(plainText(note.content));
    this.db.transaction(() => {
      const id = this.value('SELECT id FROM notes WHERE short_id = ?', [note.shortId]);
      let rowid: number;
      if (id === undefined) {
        rowid = Number(
          this.value('INSERT INTO notes (short_id, folder, version) VALUES (?, ?, ?) RETURNING id', [
            note.shortId,
            note.parentFolderId,
            note.version,
          ]),
        );
        this.notes += 1;
      } else {
        rowid = Number(id);
        this.unindex(rowid);
        this.run('UPDATE notes SET folder = ?, version = ? WHERE id = ?', [
          note.parentFolderId,
          note.version,
          rowid,
        ]);
      }
      this.run('INSERT INTO terms (rowid, title, tags, body) VALUES (?, ?, ?, ?)', [
        rowid,
        title.join(' '),
        tags.join(' '),
        body.join(' '),
      ]);
      for (const tag of new Set(note.tags))
        this.run('INSERT INTO tags (tag, id) VALUES (?, ?)', [tag, rowid]);
      for (const term of new Set([...title, ...tags, ...body])) {
        this.run('INSERT OR IGNORE INTO words (term) VALUES (?)', [term]);
        if (term.length >= FUZZY_MIN_LENGTH - 1)
          this.run('INSERT OR IGNORE INTO reversed (term) VALUES (?)', [reverse(term)]);
      }
    });
  }

  remove(shortId: string): void {
    const id = this.value('SELECT id FROM notes WHERE short_id = ?', [shortId]);
    if (id === undefined) return;
    this.db.transaction(() => {
      this.unindex(Number(id));
      this.run('DELETE FROM notes WHERE id = ?', [id]);
    });
    this.notes -= 1;
  }

  private unindex(rowid: number): void {
    this.run('DELETE FROM terms WHERE rowid = ?', [rowid]);
    this.run('DELETE FROM tags WHERE id = ?', [rowid]);
  }

  /** The version of each note indexed (an index equals another when these are equal). */
  versions(): Map<string, number> {
    return new Map(
      this.rows('SELECT short_id, version FROM notes').map(([id, v]) => [String(id), Number(v)] as const),
    );
  }

  /** The words `prefix` expands to: the ones of the segment that most notes hold. */
  expansions(prefix: string): string[] {
    const found = this.rows(
      'SELECT term, doc FROM vocabulary WHERE term > ? AND term < ? ORDER BY doc DESC, term LIMIT ?',
      [prefix, prefix + AFTER, MAX_PREFIX_EXPANSIONS],
    );
    const out: string[] = [];
    let postings = 0;
    for (const [term, doc] of found) {
      if (out.length && postings + Number(doc) > PREFIX_POSTINGS * this.notes) break;
      out.push(String(term));
      postings += Number(doc);
    }
    return out;
  }

  /**
   * The segment's words one edit away from `word` (the word itself not included) that its notes hold,
   * with how many notes hold each: of the first NEIGHBOUR_SCAN words of each range, the first
   * `counts.left` neighbours (at most NEIGHBOUR_COUNTS), each counted taken from it.
   */
  oneEditAway(word: string, counts = { left: NEIGHBOUR_COUNTS }): Map<string, number> {
    const half = word.length >> 1;
    const lengths = [word.length - 1, word.length + 1];
    const head = word.slice(0, half);
    const tail = reverse(word.slice(half));
    const near = new Set<string>();
    // An edit in the second half keeps the first half: the vocabulary's range of words starting so.
    for (const [t] of this.rows(
      'SELECT term FROM words WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ? LIMIT ?',
      [head, head + AFTER, ...lengths, NEIGHBOUR_SCAN],
    ))
      near.add(String(t));
    // An edit in the first half keeps the second half: the same, over the words written backwards.
    for (const [t] of this.rows(
      'SELECT term FROM reversed WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ? LIMIT ?',
      [tail, tail + AFTER, ...lengths, NEIGHBOUR_SCAN],
    ))
      near.add(reverse(String(t)));
    near.delete(word);
    const out = new Map<string, number>();
    let mine = NEIGHBOUR_COUNTS;
    for (const t of near) {
      if (!withinOneEdit(word, t)) continue;
      if (counts.left <= 0 || mine <= 0) break;
      counts.left -= 1;
      mine -= 1;
      // The notes holding it now (none: a word its notes no longer hold, not a neighbour).
      const doc = Number(this.value('SELECT doc FROM vocabulary WHERE term = ?', [t]) ?? 0);
      if (doc > 0) out.set(t, doc);
    }
    return out;
  }

  /** Whether a note of the segment holds (or held, since the segment was built) this word. */
  holds(word: string): boolean {
    return this.value('SELECT 1 FROM words WHERE term = ?', [word]) !== undefined;
  }

  /** Up to `limit` of the segment's words that start with `prefix` (the prefix itself not included). */
  completions(prefix: string, limit: number): string[] {
    return this.rows('SELECT term FROM words WHERE term > ? AND term < ? LIMIT ?', [
      prefix,
      prefix + AFTER,
      limit,
    ]).map(([t]) => String(t));
  }

  /** The best `want` notes matching the query, with the tag and folder given, and how many match. */
  search(query: Query, filter: { tag?: string; folderId?: string } = {}, want = 50): Found {
    const plan = planQuery([this], query);
    return plan ? { ...this.match(plan.match, filter, want), matched: plan.matched } : NOTHING;
  }

  /**
   * The best `want` notes matching an FTS5 expression (planQuery's), and how many match, within the
   * search's budget of steps (shared by the segments it matches); BadInput past it.
   */
  match(
    expression: string,
    filter: { tag?: string; folderId?: string },
    want: number,
    budget = new StepBudget(),
  ): Omit<Found, 'matched'> {
    const where = ['terms MATCH ?'];
    const bind: SqlValue[] = [expression];
    if (filter.folderId !== undefined) {
      where.push('rowid IN (SELECT id FROM notes WHERE folder = ?)');
      bind.push(filter.folderId);
    }
    if (filter.tag !== undefined) {
      where.push('rowid IN (SELECT id FROM tags WHERE tag = ?)');
      bind.push(filter.tag);
    }
    const rows = this.bounded(budget, () =>
      this.rows(
        `WITH hits AS MATERIALIZED (
         SELECT rowid AS id, bm25(terms, ${BOOST.title}, ${BOOST.tags}, ${BOOST.text}) AS rank
         FROM terms WHERE ${where.join(' AND ')})
       SELECT notes.short_id, hits.rank, (SELECT count(*) FROM hits)
       FROM hits JOIN notes ON notes.id = hits.id ORDER BY hits.rank, notes.short_id LIMIT ?`,
        [...bind, want],
      ),
    );
    return {
      candidates: rows.map(([id, rank]) => ({ shortId: String(id), score: -Number(rank) })),
      total: rows.length ? Number(rows[0][2]) : 0,
    };
  }

  /** Runs `fn` within the budget; a statement it interrupted is a query too broad to answer. */
  private bounded<T>(budget: StepBudget, fn: () => T): T {
    this.budget = budget;
    try {
      return fn();
    } catch (err) {
      if (budget.left < 0) throw tooBroad();
      throw err;
    } finally {
      this.budget = undefined;
    }
  }

  private statement(sql: string): PreparedStatement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private rows(sql: string, bind: SqlValue[] = []): SqlValue[][] {
    const s = this.statement(sql);
    try {
      if (bind.length) s.bind(bind);
      const out: SqlValue[][] = [];
      while (s.step()) out.push(s.get([]) as SqlValue[]);
      return out;
    } finally {
      s.reset(true);
    }
  }

  private value(sql: string, bind: SqlValue[] = []): SqlValue | undefined {
    return this.rows(sql, bind)[0]?.[0];
  }

  private run(sql: string, bind: SqlValue[]): void {
    this.rows(sql, bind);
  }
}

const NOTHING: Found = { candidates: [], total: 0, matched: [] };

const tooBroad = () =>
  new BadInput('The query matches too much to answer in time: use fewer words, or longer ones', {
    fields: [{ field: 'q', message: 'is too broad to search' }],
  });

/** What a query asks of each segment it searches: one FTS5 expression, and the terms a snippet marks. */
export interface Plan {
  match: string;
  matched: string[];
}

/**
 * The query as one FTS5 expression for every segment searched (of one workspace or several): each
 * word or its one-edit neighbours in any of the segments, the last word or its completions, every
 * phrase as a phrase. Worked out once per search, not once per segment: the vocabulary lookups are
 * most of a search's work after the matching itself.
 */
export function planQuery(segments: NoteIndex[], query: Query): Plan | undefined {
  if (query.words.length === 0 && query.phrases.length === 0) return undefined;
  const matched = new Set(query.terms);
  // A word written twice is one condition: its alternatives are worked out, and cost, once.
  const words = [...new Set(query.words)];
  const last = query.words.length - 1;
  // A word no note holds is taken for a misspelling: its commonest one-edit neighbours stand in for
  // it. A word the notes hold is taken as written (its neighbours would be noise, and each one
  // more alternative costs ranking as much again).
  const misspelled = words.filter((w) => w.length >= FUZZY_MIN_LENGTH && !segments.some((s) => s.holds(w)));
  // What the neighbours may add to the expression (the budget less the words, the phrases and the
  // prefix's completions) and the neighbours counted, shared evenly by the misspellings: each
  // stands for some of its neighbours, never one for all and the next (ANDed) for none, which
  // would match nothing.
  const room =
    MAX_QUERY_ALTERNATIVES - words.length - query.phrases.length - (query.prefix ? MAX_PREFIX_EXPANSIONS : 0);
  const most = Math.min(MAX_NEIGHBOURS, Math.floor(room / Math.max(1, misspelled.length)));
  const counts = Math.floor(QUERY_NEIGHBOUR_COUNTS / Math.max(1, misspelled.length));
  const parts = words.map((word) => {
    const alternatives = new Set([word]);
    if (most > 0 && misspelled.includes(word))
      for (const t of neighboursOf(segments, word, most, counts)) alternatives.add(t);
    // A prefix stands for its commonest completions, not for every one (FTS5's own `word *`): a short
    // prefix of a large vocabulary merges thousands of words' postings (5 times slower at 10,000
    // notes, measured), and ranking costs as much per row as there are alternatives.
    // The last word written earlier too is that earlier condition (its completions would widen nothing).
    if (query.prefix && word === query.words[last] && query.words.indexOf(word) === last)
      for (const t of expansionsOf(segments, word)) alternatives.add(t);
    for (const t of alternatives) matched.add(t);
    return alternatives.size === 1 ? quoted(word) : `(${[...alternatives].map(quoted).join(' OR ')})`;
  });
  for (const phrase of query.phrases) parts.push(quoted(phrase.join(' ')));
  return { match: parts.join(' AND '), matched: [...matched] };
}

/**
 * A misspelled word's one-edit neighbours across segments: the `most` that most notes hold (their
 * counts summed over the segments), ties in the vocabulary's order; at most `counts` neighbours
 * counted (NoteIndex.oneEditAway), shared by the segments.
 */
export function neighboursOf(
  segments: NoteIndex[],
  word: string,
  most: number,
  counts = QUERY_NEIGHBOUR_COUNTS,
): string[] {
  const notes = new Map<string, number>();
  const left = { left: counts };
  // Each segment's share, so the first segments do not take them all (a workspace's notes, and so
  // its words, are spread evenly over its segments).
  const share = Math.max(1, Math.floor(counts / Math.max(1, segments.length)));
  for (const s of segments) {
    if (left.left <= 0) break;
    const mine = { left: Math.min(share, left.left) };
    const before = mine.left;
    for (const [t, doc] of s.oneEditAway(word, mine)) notes.set(t, (notes.get(t) ?? 0) + doc);
    left.left -= before - mine.left;
  }
  return [...notes]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, most)
    .map(([t]) => t);
}

/**
 * The words a prefix expands to across segments: all of its completions when they are at most
 * MAX_PREFIX_EXPANSIONS; else the ones most notes hold, counted in the segment that has the most
 * completions (each segment holds a random share of a workspace's notes, so its counts rank words
 * as the workspace's would), within its PREFIX_POSTINGS bound.
 */
export function expansionsOf(segments: NoteIndex[], prefix: string): string[] {
  const all = new Set<string>();
  let sample: NoteIndex | undefined;
  let most = 0;
  for (const s of segments) {
    const found = s.completions(prefix, MAX_PREFIX_EXPANSIONS + 1);
    for (const t of found) all.add(t);
    if (found.length > most) [sample, most] = [s, found.length];
  }
  if (all.size <= MAX_PREFIX_EXPANSIONS) return [...all];
  return sample ? sample.expansions(prefix) : [];
}
