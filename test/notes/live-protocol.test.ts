// The live wire's reader (lib/notes/live/protocol.ts): an awareness frame is relayed only when every
// client can apply it (y-protocols decodes it, each state is JSON, within the bounds).
import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import {
  AWARENESS_MAX_BYTES,
  awarenessMessage,
  MESSAGE_AWARENESS,
  readMessage,
} from '../../lib/notes/live/protocol.ts';

const frame = (update: Uint8Array) => {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_AWARENESS);
  encoding.writeVarUint8Array(e, update);
  return Buffer.from(encoding.toUint8Array(e)).toString('base64');
};

describe('awareness frames', () => {
  it('a valid one (a state, a removal) is read as awareness', () => {
    const doc = new Y.Doc();
    const awareness = new awarenessProtocol.Awareness(doc);
    awareness.setLocalStateField('user', { name: 'Ada' });
    const state = frame(awarenessProtocol.encodeAwarenessUpdate(awareness, [doc.clientID]));
    expect(readMessage(state)).toEqual({
      kind: 'awareness',
      states: [{ clientId: doc.clientID, clock: 1, json: '{"user":{"name":"Ada"}}' }],
    });
    awareness.setLocalState(null);
    const removal = frame(awarenessProtocol.encodeAwarenessUpdate(awareness, [doc.clientID]));
    expect(readMessage(removal)).toEqual({
      kind: 'awareness',
      states: [{ clientId: doc.clientID, clock: 2, json: 'null' }],
    });
    // Written back as y-protocols writes it (the server relays the states a connection owns).
    for (const f of [state, removal]) {
      const read = readMessage(f);
      expect(read?.kind === 'awareness' && awarenessMessage(read.states)).toBe(f);
    }
    awareness.destroy();
  });

  it('frames that crash a client (bad JSON, truncated, empty) or pass the bounds are refused', () => {
    for (const bad of ['AQ0BBwEJe25vdCBqc29u', 'AQLoBw==', 'AQA=']) expect(readMessage(bad)).toBeUndefined();
    const doc = new Y.Doc();
    const awareness = new awarenessProtocol.Awareness(doc);
    awareness.setLocalStateField('user', { name: 'x'.repeat(AWARENESS_MAX_BYTES) });
    expect(
      readMessage(frame(awarenessProtocol.encodeAwarenessUpdate(awareness, [doc.clientID]))),
    ).toBeUndefined();
    awareness.destroy();
  });
});
