// Types of provider.mjs, for TypeScript clients.
import type * as Y from 'yjs';
import type { Awareness } from 'y-protocols/awareness';

export declare const MESSAGE_SYNC = 0;
export declare const MESSAGE_AWARENESS = 1;
export declare const MESSAGE_AWARENESS_ANSWER = 4;
/** The largest update sent in one message (API Gateway's 32 KB frames, base64). */
export declare const MAX_UPDATE_BYTES: number;
/** An update cut into updates of at most about maxBytes that, applied in any order, are the update. */
/** How long own updates and awareness changes are gathered into one frame each (100 ms). */
export declare const BATCH_MS: number;
/** A keepalive after this long without a frame sent (9.5 minutes, under API Gateway's 10-minute idle limit). */
export declare const KEEPALIVE_MS: number;
/** The keepalive frame, `{"action":"ping"}`: API Gateway's MOCK route answers it, no function runs. */
export declare const KEEPALIVE_FRAME: string;
export declare function splitUpdate(update: Uint8Array, maxBytes?: number): Uint8Array[];

/** What `POST /v1/notes/:noteId/live` answers. */
export interface LiveGrant {
  url: string;
  expiresAt?: string;
  access: 'write' | 'read';
}

export declare function openLive(options: {
  api: string;
  token: string;
  noteId: string;
  teamPath?: string;
}): Promise<LiveGrant>;

export interface LiveError {
  code: string;
  message: string;
}

type Events = {
  synced: () => void;
  status: (e: { status: 'connecting' | 'connected' | 'disconnected' }) => void;
  error: (e: LiveError) => void;
};

export declare class LiveProvider {
  constructor(
    doc: Y.Doc,
    connect: () => Promise<LiveGrant>,
    options?: {
      WebSocket?: unknown;
      awareness?: Awareness;
      maxBackoffMs?: number;
      batchMs?: number;
      keepaliveMs?: number;
    },
  );
  readonly doc: Y.Doc;
  readonly awareness: Awareness;
  synced: boolean;
  access: 'write' | 'read' | undefined;
  on<E extends keyof Events>(event: E, listener: Events[E]): this;
  off<E extends keyof Events>(event: E, listener: Events[E]): this;
  /** Applies one frame from the server; a malformed one is reported as an 'error' (bad_message). */
  receive(text: string): void;
  disconnect(): void;
  reconnect(): void;
  /** Resolves once the server holds every insertion made here so far. */
  flush(): Promise<void>;
  destroy(): void;
}
