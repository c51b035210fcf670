// A live client in Node: prints a note's text whenever anyone changes it, and appends each line you
// type to the note, live (docs/live.md). With `npm start` running:
//
//   node examples/live/node-client.mjs --token tri_... --note <noteId> [--api http://localhost:3000/v1]
//
// Open the same note in the editor page (http://localhost:3000/_live/editor) and type in either.
// Node 22+ has a global WebSocket; on older Node this uses the `ws` package.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import * as Y from 'yjs';
import { LiveProvider, openLive } from './provider.mjs';

const { values } = parseArgs({
  options: {
    token: { type: 'string' },
    note: { type: 'string' },
    team: { type: 'string' },
    api: { type: 'string', default: 'http://localhost:3000/v1' },
  },
});
if (!values.token || !values.note) {
  console.error(
    'usage: node examples/live/node-client.mjs --token tri_... --note <noteId> [--team <path>] [--api <url>]',
  );
  process.exit(1);
}
const WebSocket = globalThis.WebSocket ?? (await import('ws')).default;
const doc = new Y.Doc();
const text = doc.getText('content');
const live = new LiveProvider(
  doc,
  () => openLive({ api: values.api, token: values.token, noteId: values.note, teamPath: values.team }),
  { WebSocket },
);
live.awareness.setLocalStateField('user', { name: `node ${process.pid}` });
live.on('status', ({ status }) => console.error(`[${status}]`));
live.on('error', ({ code, message }) => console.error(`[error ${code}] ${message}`));
live.on('synced', () => console.error(`[synced: ${live.access}]`));
text.observe(() => console.log(`----\n${text.toString()}`));

// Ctrl-C: say goodbye (the others drop this client's awareness state at once), then go.
process.once('SIGINT', () => {
  live.destroy();
  setTimeout(() => process.exit(130), 200);
});

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => text.insert(text.length, `${line}\n`));
// Input ended (a pipe, Ctrl-D): exit once the server holds every line, which may be before we connected.
lines.on('close', async () => {
  const timeout = setTimeout(() => {
    console.error('[not saved: the server did not confirm within 30 s]');
    process.exit(1);
  }, 30_000);
  await live.flush();
  clearTimeout(timeout);
  live.destroy();
  process.exit(0);
});
