// The example live clients (examples/live): the Node client keeps what was piped in (it waits for the
// connection and the server's acknowledgement before it exits), and a malformed frame from another
// client is reported, not fatal.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { LiveProvider } from '../../examples/live/provider.mjs';
import { newUser } from '../support/identity.ts';
import { call, createNote, local } from './helpers.ts';

const api = () => `${process.env.TEST_BASE_URL}/v1`;

describe('the example provider', () => {
  it('reports a malformed awareness frame instead of throwing', () => {
    const doc = new Y.Doc();
    // Never connects: the connect callback does not resolve.
    const provider = new LiveProvider(doc, () => new Promise(() => {}), { WebSocket });
    const errors: { code: string }[] = [];
    provider.on('error', (e: { code: string }) => errors.push(e));
    for (const frame of ['AQ0BBwEJe25vdCBqc29u', 'AQLoBw==', 'AQA=']) {
      expect(() => provider.receive(frame)).not.toThrow();
    }
    expect(errors.map((e) => e.code)).toEqual(['bad_message', 'bad_message', 'bad_message']);
    provider.destroy();
  });
});

describe.skipIf(!local)('examples/live/node-client.mjs', () => {
  it('applies piped input before it exits', async () => {
    const me = await newUser('Live Piper');
    const note = await createNote(me.token, { content: '' });
    const child = spawn(
      process.execPath,
      ['examples/live/node-client.mjs', '--token', me.token, '--note', note.id, '--api', api()],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end('first line\nsecond line\n');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, stderr).toBe(0);
    const started = Date.now();
    let content = '';
    while (Date.now() - started < 15_000) {
      content = (await call('GET', `/v1/notes/${note.id}`, { token: me.token })).body.content;
      if (content === 'first line\nsecond line\n') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(content).toBe('first line\nsecond line\n');
  }, 60_000);
});
