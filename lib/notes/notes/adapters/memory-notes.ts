// In-memory adapter of the notes store (unit tests): the same contract as dynamo-notes.ts.
import type { Completion } from '../../../domain/idempotency.ts';
import { Conflict, NotFound } from '../../../domain/errors.ts';
import type { NoteOwnerKey } from '../../../data/keys.ts';
import type { NoteRecord } from '../../kernel/model.ts';
import type { NotesStore, StoredNote } from '../../kernel/ports.ts';

const copy = <T>(value: T): T => structuredClone(value);
const ownerOf = (n: NoteRecord) => (n.teamPath ? `team:${n.teamPath}` : `user:${n.ownerId}`);
const ownerKey = (o: NoteOwnerKey) => ('userId' in o ? `user:${o.userId}` : `team:${o.teamPath}`);

interface Visit {
  userId: string;
  at: number;
  note: NoteRecord;
}
interface Stored {
  note: NoteRecord;
  content: string;
  /** Counts reads (recordVisit) as the DynamoDB store does: undefined until the first. */
  visitSeq?: number;
  visits: Map<string, Visit>;
}

const changed = () => new Conflict('The note changed meanwhile', { reason: 'version' });

export class MemoryNotesStore implements NotesStore {
  private readonly notes = new Map<string, Stored>();
  /** owner -> permalink -> note id */
  private readonly permalinks = new Map<string, string>();
  /** Visit times grow strictly, as a clock would, so history has one order. */
  private tick = 0;

  constructor(private readonly now: () => number = () => Date.now()) {}

  async getNote(shortId: string, opts: { visitors?: boolean } = {}): Promise<StoredNote | undefined> {
    const s = this.notes.get(shortId);
    if (!s) return undefined;
    const stored: StoredNote = { note: copy(s.note), content: s.content, visitSeq: s.visitSeq };
    if (opts.visitors)
      stored.visitors = [...s.visits.values()].map((v) => ({ userId: v.userId, visitedAt: v.at }));
    return stored;
  }

  /** Idempotency-Keys are not kept in memory (the wiring keeps them in DynamoDB): `_completion` is not stored. */
  async createNote(
    note: NoteRecord,
    content: string,
    creatorId: string,
    _completion?: Completion,
  ): Promise<void> {
    if (this.notes.has(note.shortId)) throw changed();
    this.takePermalink(note);
    this.notes.set(note.shortId, { note: copy(note), content, visits: new Map() });
    this.visit(note, creatorId);
  }

  async saveNote(
    previous: StoredNote,
    next: NoteRecord,
    content: string | undefined,
    editorId: string,
  ): Promise<void> {
    const s = this.notes.get(previous.note.shortId);
    // A live document's mark since the read is a lost race, as in DynamoDB (NoteRecord.live).
    if (!s || s.note.version !== previous.note.version || s.note.live !== previous.note.live) throw changed();
    const old = s.note;
    if (next.permalink !== old.permalink) {
      if (next.permalink) this.takePermalink(next);
      if (old.permalink) this.permalinks.delete(`${ownerOf(old)}/${old.permalink}`);
    }
    s.note = copy(next);
    if (content !== undefined) s.content = content;
    this.visit(next, editorId);
  }

  async markLive(shortId: string): Promise<void> {
    const s = this.notes.get(shortId);
    if (!s) throw new NotFound('The note does not exist');
    s.note.live = true;
  }

  async recordVisit(note: NoteRecord, userId: string): Promise<void> {
    const s = this.notes.get(note.shortId);
    if (!s) throw new NotFound('The note does not exist');
    s.visitSeq = (s.visitSeq ?? 0) + 1;
    this.visit(note, userId);
  }

  async deleteNote(stored: StoredNote): Promise<void> {
    const s = this.notes.get(stored.note.shortId);
    if (!s || s.note.version !== stored.note.version || s.visitSeq !== stored.visitSeq) throw changed();
    if (s.note.permalink) this.permalinks.delete(`${ownerOf(s.note)}/${s.note.permalink}`);
    this.notes.delete(stored.note.shortId);
  }

  async listNotes(owner: NoteOwnerKey): Promise<NoteRecord[]> {
    const key = ownerKey(owner);
    return [...this.notes.values()]
      .map((s) => s.note)
      .filter((n) => ownerOf(n) === key)
      .sort((a, b) => b.lastChangedAt - a.lastChangedAt || (a.shortId < b.shortId ? 1 : -1))
      .map(copy);
  }

  async history(userId: string, limit: number): Promise<NoteRecord[]> {
    return [...this.notes.values()]
      .flatMap((s) => [...s.visits.values()])
      .filter((v) => v.userId === userId)
      .sort((a, b) => b.at - a.at)
      .slice(0, limit)
      .map((v) => copy(v.note));
  }

  private takePermalink(note: NoteRecord): void {
    if (!note.permalink) return;
    const key = `${ownerOf(note)}/${note.permalink}`;
    const holder = this.permalinks.get(key);
    if (holder !== undefined && holder !== note.id)
      throw new Conflict('The permalink is taken', { reason: 'permalink' });
    this.permalinks.set(key, note.id);
  }

  private visit(note: NoteRecord, userId: string): void {
    this.tick = Math.max(this.tick + 1, this.now());
    this.notes.get(note.shortId)!.visits.set(userId, { userId, at: this.tick, note: copy(note) });
  }
}
