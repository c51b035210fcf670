// Live editing (docs/live.md): the rules and shapes of the note's side.
/** A ticket is valid this long after POST /v1/notes/{noteId}/live, and for one connection. */
export const TICKET_SECONDS = 60;
/** API Gateway's frame limit: a larger client message is refused (an error frame), nothing else. */
export const MAX_CLIENT_MESSAGE_BYTES = 32 * 1024;
/** API Gateway's message limit is 128 KB: every update the server sends is cut below it (base64 is 4/3). */
export const MAX_SENT_UPDATE_BYTES = 64 * 1024;
/** A compaction merges the stored updates into the state once this many are stored. */
export const COMPACT_AFTER_UPDATES = 50;
/** A compacted state larger than this goes to S3 (live/ prefix), the head item names it. */
export const INLINE_STATE_BYTES = 32 * 1024;

/**
 * What one connection may send, per fixed window of the wall clock (docs/live.md, "Limits"): sync
 * step 1 (each answered with the document), awareness, and every other message (updates, step 2, a
 * bad frame). The first message past the limit is answered `rate_limited`, the next ones of the
 * window are dropped; at RATE_CLOSE_FACTOR times the limit the connection is closed.
 */
export const RATE_LIMITS = {
  step1: { limit: 10, windowSeconds: 60 },
  awareness: { limit: 20, windowSeconds: 1 },
  update: { limit: 60, windowSeconds: 1 },
} as const;
export type RateKind = keyof typeof RATE_LIMITS;
export const RATE_CLOSE_FACTOR = 4;

export type LiveAccess = 'read' | 'write';

/** A single-use ticket; kept under the SHA-256 of its secret. */
export interface Ticket {
  hash: string;
  userId: string;
  noteId: string;
  shortId: string;
  expiresAt: number;
  /** The SHA-256 of the API token that asked for it: revoking the token voids the ticket. */
  tokenHash?: string;
}

export interface LiveConnection {
  connectionId: string;
  userId: string;
  noteId: string;
  shortId: string;
  teamPath: string | null;
  access: LiveAccess;
  connectedAt: number;
  /** The SHA-256 of the API token whose ticket opened it: revoking the token closes it. */
  tokenHash?: string;
  /** The Yjs client ids it owns (it wrote with them, or announced them first): its awareness. */
  clientIds?: number[];
  /**
   * Per client id, the highest awareness clock it sent (the last message's, as counted): its
   * $disconnect removes the states of the ids it still owns at the next clock.
   */
  clocks?: Record<number, number>;
  /**
   * The client closed it ($disconnect): kept (by its id only) a few minutes so the messages it sent
   * before closing, still queued, are applied; it receives nothing and is in no relay.
   */
  closed?: boolean;
}

/** Who asks for a connect URL: the user and the API token of the call. */
export interface LiveCaller {
  userId: string;
  tokenHash: string;
}

/** What a connect URL answers (POST /v1/notes/{noteId}/live). */
export interface LiveOpening {
  url: string;
  expiresAt: number;
  access: LiveAccess;
}

/** The codes of the error frames the server sends (docs/live.md, "Errors"). */
export type LiveErrorCode =
  | 'message_too_large'
  | 'bad_message'
  | 'read_only'
  | 'content_too_large'
  | 'document_too_large'
  | 'access_changed'
  | 'rate_limited';

/** An error frame: JSON (never base64), so a client tells it from a y-protocols message. */
export const errorFrame = (code: LiveErrorCode, message: string): string =>
  JSON.stringify({ error: { code, message } });
