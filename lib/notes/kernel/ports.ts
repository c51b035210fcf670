// The Notes ports: what the domain needs from storage (./adapters: dynamo-notes, s3-images, and
// memory-* for tests) and from the identity directory (lib/identity's service satisfies Directory).
// Failure convention: a conditional write that loses throws Conflict('version') (the note changed
// since read), Conflict('permalink') (the owner has another note with it), or NotFound (gone).
import type { Completion } from '../../domain/idempotency.ts';
import type { Team, User } from '../../identity/model.ts';
import type { ContentSlot, NoteOwnerKey } from '../../data/keys.ts';
import type { NoteRecord } from './model.ts';

/** A note as read from its partition. */
export interface StoredNote {
  note: NoteRecord;
  content: string;
  /**
   * Counts visits (undefined: none counted yet); DeleteNote is conditional on it so no history entry
   * outlives the note.
   */
  visitSeq?: number;
  /** The note's history entries: who read it, when (read only when asked for). */
  visitors?: { userId: string; visitedAt: number }[];
  /** Which of its two content items the DynamoDB store read the content from (absent: A). */
  contentSlot?: ContentSlot;
}

export interface NotesStore {
  /** META and CONTENT (and the visitors when asked), strongly consistent; undefined if absent. */
  getNote(shortId: string, opts?: { visitors?: boolean }): Promise<StoredNote | undefined>;
  /**
   * Writes a new note, its content, permalink guard and the creator's visit; Conflict('permalink').
   * `completion`: the request's Idempotency-Key, completed in the same transaction.
   */
  createNote(note: NoteRecord, content: string, creatorId: string, completion?: Completion): Promise<void>;
  /**
   * Replaces `previous` with `next` if no one changed it since it was read (version condition);
   * writes `content` when given; moves the permalink guard; records the editor's history entry.
   * Conflict('version') when the note changed (or vanished) meanwhile.
   */
  saveNote(
    previous: StoredNote,
    next: NoteRecord,
    content: string | undefined,
    editorId: string,
  ): Promise<void>;
  /**
   * Marks the note as having a live document (NoteRecord.live), before live editing creates it, so a
   * REST content change reads the document only when there is one. NotFound when the note is gone.
   */
  markLive(shortId: string): Promise<void>;
  /** Records that the user read the note now. NotFound when the note no longer exists. */
  recordVisit(note: NoteRecord, userId: string): Promise<void>;
  /** Deletes the note, its permalink guard and history entries; Conflict('version') if changed since read. */
  deleteNote(stored: StoredNote): Promise<void>;
  /** An owner's notes, most recently changed first (one page of up to 1 MB). */
  listNotes(owner: NoteOwnerKey): Promise<NoteRecord[]>;
  /** The notes a user read or changed, most recent first, as they were at that time. */
  history(userId: string, limit: number): Promise<NoteRecord[]>;
}

/**
 * Sees every content change through (lib/notes/revisions/versions.ts keeps system versions): prepares the
 * versions for it, runs `save` (the note's own write), then records it. Conflict('version') only
 * before `save` has committed (the caller then retries on the fresh note); a failure after it is
 * not a lost race of the note's own write.
 */
export interface ContentHistory {
  changeContent(
    previous: StoredNote,
    note: NoteRecord,
    content: string,
    editor: User,
    save: () => Promise<void>,
  ): Promise<void>;
}

/** Told after a REST write changed a note's content (live editing: lib/notes/live). */
export interface ContentListener {
  contentChanged(note: NoteRecord, before: string, after: string, editorId: string): Promise<void>;
}

/** Where DeleteNote puts a note (lib/notes/trash/trash.ts); false when the note changed since read. */
export interface Bin {
  moveToTrash(stored: StoredNote, userId: string): Promise<boolean>;
}

export interface ImageStore {
  /** Stores an image of the note; returns its object key. */
  put(noteId: string, bytes: Buffer, type: { mime: string; ext: string }): Promise<string>;
  /** Removes every image of the note. */
  deleteAll(noteId: string): Promise<void>;
}

/** What an image is, told from its bytes (never from a file name or a request header). */
export interface ImageTypes {
  detect(bytes: Buffer): Promise<{ mime: string; ext: string } | undefined>;
}

export interface Directory {
  /** `hookedWorkspaces`: `user` and `team:<path>` for the workspaces with a webhook (new notes are stamped). */
  getUserWithTeams(
    userId: string,
  ): Promise<{ user: User; teams: Team[]; hookedWorkspaces?: string[] } | undefined>;
  isMember(teamPath: string, userId: string): Promise<boolean>;
  getTeam(teamPath: string): Promise<Team | undefined>;
}
