// The wire (docs/live.md, "Protocol"): each WebSocket message is one y-protocols message as
// y-websocket frames it (0 sync, 1 awareness), base64 in a text frame.
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as sync from 'y-protocols/sync';

export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
/**
 * An awareness answer: the target client ids (a count, then each), then an awareness update. A
 * client's state sent once more to peers that just appeared: the server relays it to the connections
 * holding the targets alone (not to everyone), and a client receiving it answers nothing back.
 */
export const MESSAGE_AWARENESS_ANSWER = 4;

export type Incoming =
  | { kind: 'step1'; stateVector: Uint8Array }
  | { kind: 'step2' | 'update'; update: Uint8Array }
  | { kind: 'awareness'; states: AwarenessState[] }
  | { kind: 'answer'; targets: number[]; states: AwarenessState[] };

/** One client's state in an awareness update: its id, clock and JSON (`null`: the state removed). */
export interface AwarenessState {
  clientId: number;
  clock: number;
  json: string;
}

/** Reads one client message; undefined when it is not one (bad base64, unknown type, truncated). */
export function readMessage(body: string): Incoming | undefined {
  try {
    const bytes = Buffer.from(body, 'base64');
    if (bytes.length === 0 || bytes.toString('base64') !== body.replace(/\s/g, '')) return undefined;
    const decoder = decoding.createDecoder(bytes);
    const type = decoding.readVarUint(decoder);
    if (type === MESSAGE_AWARENESS) {
      const states = awarenessStates(decoding.readVarUint8Array(decoder));
      return states && !decoding.hasContent(decoder) ? { kind: 'awareness', states } : undefined;
    }
    if (type === MESSAGE_AWARENESS_ANSWER) {
      const count = decoding.readVarUint(decoder);
      if (count === 0 || count > AWARENESS_MAX_STATES) return undefined;
      const targets: number[] = [];
      for (let i = 0; i < count; i += 1) targets.push(decoding.readVarUint(decoder));
      const states = awarenessStates(decoding.readVarUint8Array(decoder));
      return states && !decoding.hasContent(decoder)
        ? { kind: 'answer', targets: [...new Set(targets)], states }
        : undefined;
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
 * The states of an awareness update when it is one y-protocols' applyAwarenessUpdate reads without
 * throwing and a client can use: a count, then per state its client id, clock and JSON (an object,
 * or null for a removal), nothing after, within the bounds above; else undefined.
 */
function awarenessStates(update: Uint8Array): AwarenessState[] | undefined {
  if (update.length === 0 || update.length > AWARENESS_MAX_BYTES) return undefined;
  const decoder = decoding.createDecoder(update);
  const count = decoding.readVarUint(decoder);
  if (count === 0 || count > AWARENESS_MAX_STATES) return undefined;
  const states: AwarenessState[] = [];
  for (let i = 0; i < count; i += 1) {
    const clientId = decoding.readVarUint(decoder);
    const clock = decoding.readVarUint(decoder);
    const json = decoding.readVarString(decoder);
    const state: unknown = JSON.parse(json);
    if (state !== null && (typeof state !== 'object' || Array.isArray(state))) return undefined;
    states.push({ clientId, clock, json });
  }
  return decoding.hasContent(decoder) ? undefined : states;
}

/** An awareness message of these states (y-protocols' encodeAwarenessUpdate, framed). */
export function awarenessMessage(states: AwarenessState[]): string {
  return awarenessFrame(states);
}

/** An awareness answer to these targets, of these states. */
export function answerMessage(targets: number[], states: AwarenessState[]): string {
  return awarenessFrame(states, targets);
}

function awarenessFrame(states: AwarenessState[], targets?: number[]): string {
  const update = encoding.createEncoder();
  encoding.writeVarUint(update, states.length);
  for (const s of states) {
    encoding.writeVarUint(update, s.clientId);
    encoding.writeVarUint(update, s.clock);
    encoding.writeVarString(update, s.json);
  }
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, targets ? MESSAGE_AWARENESS_ANSWER : MESSAGE_AWARENESS);
  if (targets) {
    encoding.writeVarUint(encoder, targets.length);
    for (const t of targets) encoding.writeVarUint(encoder, t);
  }
  encoding.writeVarUint8Array(encoder, encoding.toUint8Array(update));
  return Buffer.from(encoding.toUint8Array(encoder)).toString('base64');
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
