// The editor page's script (editor.html): a textarea bound to the note's Y.Text `content` through the
// provider. Local typing becomes the smallest Yjs change (the common prefix and suffix are kept);
// remote changes update the textarea and move the caret by what was inserted or deleted before it.
// `npm start` serves the page at http://localhost:3000/_live/editor (this file bundled by esbuild).
import * as Y from 'yjs';
import { LiveProvider, openLive } from './provider.mjs';

const $ = (id) => document.getElementById(id);
const textarea = $('content');
const status = $('status');
const params = new URLSearchParams(location.search);
if (params.get('note')) $('note').value = params.get('note');
if (params.get('team')) $('team').value = params.get('team');

let provider;

/** Applies the textarea's new value to the Y.Text as one delete and one insert between the unchanged ends. */
function applyLocal(text, next) {
  const prev = text.toString();
  if (prev === next) return;
  let start = 0;
  while (start < prev.length && start < next.length && prev[start] === next[start]) start += 1;
  let end = 0;
  while (
    end < prev.length - start &&
    end < next.length - start &&
    prev[prev.length - 1 - end] === next[next.length - 1 - end]
  )
    end += 1;
  text.doc.transact(() => {
    if (prev.length - start - end > 0) text.delete(start, prev.length - start - end);
    if (next.length - start - end > 0) text.insert(start, next.slice(start, next.length - end));
  }, 'textarea');
}

/** A caret position moved through a remote delta. */
function moved(position, delta) {
  let at = 0;
  let pos = position;
  for (const op of delta) {
    if (op.retain) at += op.retain;
    else if (op.insert) {
      const n = typeof op.insert === 'string' ? op.insert.length : 1;
      if (at <= pos) pos += n;
      at += n;
    } else if (op.delete) {
      if (at < pos) pos -= Math.min(op.delete, pos - at);
    }
  }
  return pos;
}

function showPeople(awareness) {
  const list = $('people');
  list.replaceChildren(
    ...[...awareness.getStates().values()]
      .filter((s) => s.user)
      .map((s) => {
        const li = document.createElement('li');
        li.textContent = s.user.name;
        li.style.color = s.user.color;
        return li;
      }),
  );
}

$('open').addEventListener('submit', (event) => {
  event.preventDefault();
  provider?.destroy();
  const doc = new Y.Doc();
  const text = doc.getText('content');
  const token = $('token').value.trim();
  const noteId = $('note').value.trim();
  const teamPath = $('team').value.trim() || undefined;
  provider = new LiveProvider(doc, () => openLive({ api: `${location.origin}/v1`, token, noteId, teamPath }));
  const name = $('name').value.trim() || `guest ${doc.clientID % 1000}`;
  const color = `hsl(${doc.clientID % 360} 70% 40%)`;
  provider.awareness.setLocalStateField('user', { name, color });
  provider.awareness.on('change', () => showPeople(provider.awareness));
  provider.on('status', ({ status: s }) => {
    status.textContent = s;
    textarea.disabled = s !== 'connected' && !provider.synced;
  });
  provider.on('synced', () => {
    textarea.value = text.toString();
    textarea.disabled = false;
    textarea.readOnly = provider.access === 'read';
    status.textContent = provider.access === 'read' ? 'connected (read only)' : 'connected';
    textarea.dataset.synced = 'true';
  });
  provider.on('error', (e) => {
    status.textContent = `${e.code}: ${e.message}`;
  });
  text.observe((e, tx) => {
    if (tx.origin === 'textarea') return;
    const [from, to] = [textarea.selectionStart, textarea.selectionEnd];
    textarea.value = text.toString();
    textarea.setSelectionRange(moved(from, e.delta), moved(to, e.delta));
  });
  textarea.oninput = () => applyLocal(text, textarea.value);
});
