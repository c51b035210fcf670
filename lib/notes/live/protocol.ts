// The wire (docs/live.md, "Protocol"): each WebSocket message is one y-protocols message as
// y-websocket frames it (0 sync, 1 awareness), base64 in a text frame.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as sync from 'y-protocols/sync';

export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;

export type Incoming =
  | { kind: 'step1'; stateVector: Uint8Array }
  | { kind: 'step2' | 'update'; update: Uint8Array }
  | { kind: 'awareness' };

/** Reads one client message; undefined when it is not one (bad base64, unknown type, truncated). */
export function readMessage(body: string): Incoming | undefined {
  try {
    const bytes = Buffer.from(body, 'base64');
    if (bytes.length === 0 || bytes.toString('base64') !== body.replace(/\s/g, '')) return undefined;
    const decoder = decoding.createDecoder(bytes);
    const type = decoding.readVarUint(decoder);
    if (type === MESSAGE_AWARENESS) {
      const update = decoding.readVarUint8Array(decoder);
      return validAwareness(update) && !decoding.hasContent(decoder) ? { kind: 'awareness' } : undefined;
    }
    if (type !== MESSAGE_SYNC) return undefined;
    const sub = decoding.readVarUint(decoder);
    const payload = decoding.readVarUint8Array(decoder);
    if (sub === sync.messageYjsSyncStep1) return { kind: 'step1', stateVector: payload };
    if (sub === sync.messageYjsSyncStep2) return { kind: 'step2', update: payload };
    if (sub === sync.messageYjsUpdate) return { kind: 'update', update: payload };
    return undefined;
  } catch {
    return undefined;
  }
}

/** The largest awareness update relayed (bytes), and the most client states in one. */
export const AWARENESS_MAX_BYTES = 8 * 1024;
export const AWARENESS_MAX_STATES = 8;

/**
 * Whether an awareness update is one y-protocols' applyAwarenessUpdate reads without throwing and
 * a client can use: a count, then per state its client id, clock and JSON (an object, or null for
 * a removal), nothing after, within the bounds above.
 */
function validAwareness(update: Uint8Array): boolean {
  if (update.length === 0 || update.length > AWARENESS_MAX_BYTES) return false;
  const decoder = decoding.createDecoder(update);
  const count = decoding.readVarUint(decoder);
  if (count === 0 || count > AWARENESS_MAX_STATES) return false;
  for (let i = 0; i < count; i += 1) {
    decoding.readVarUint(decoder);
    decoding.readVarUint(decoder);
    const state: unknown = JSON.parse(decoding.readVarString(decoder));
    if (state !== null && (typeof state !== 'object' || Array.isArray(state))) return false;
  }
  return !decoding.hasContent(decoder);
}

const framed = (write: (e: encoding.Encoder) => void): string => {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_SYNC);
  write(encoder);
  return Buffer.from(encoding.toUint8Array(encoder)).toString('base64');
};

export const step1Message = (stateVector: Uint8Array): string =>
  framed((e) => {
    encoding.writeVarUint(e, sync.messageYjsSyncStep1);
    encoding.writeVarUint8Array(e, stateVector);
  });
export const step2Message = (update: Uint8Array): string =>
  framed((e) => {
    encoding.writeVarUint(e, sync.messageYjsSyncStep2);
    encoding.writeVarUint8Array(e, update);
  });
export const updateMessage = (update: Uint8Array): string => framed((e) => sync.writeUpdate(e, update));
