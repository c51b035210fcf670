// The editor page's script (editor.html): a CodeMirror 6 markdown editor bound to the note's Y.Text
// `content` by y-codemirror.next, through the provider. Every other person's cursor and selection
// shows in their colour with their name (their token's user, from GET /v1/me, in the awareness state),
// and the preview beside the text (below it on a narrow screen) is the note page's own renderer and
// sanitiser (lib/notes/pages/markdown.ts), run here in the browser.
// `npm start` serves the page at http://localhost:3000/_live/editor (this file bundled by esbuild).
import { defaultKeymap, indentWithTab } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { yCollab, yUndoManagerKeymap } from 'y-codemirror.next';
import * as Y from 'yjs';
import { renderMarkdown } from '../../lib/notes/pages/markdown.ts';
import { LiveProvider, openLive } from './provider.mjs';

const $ = (id) => document.getElementById(id);
const status = $('status');
const preview = $('preview');
const params = new URLSearchParams(location.search);
if (params.get('note')) $('note').value = params.get('note');
if (params.get('team')) $('team').value = params.get('team');

/** A person's colour, the same in every tab: from their user id. */
const COLOURS = ['#d73a49', '#6f42c1', '#005cc5', '#22863a', '#b08800', '#e36209', '#1b7c83', '#c41d7f'];
const colourOf = (id) =>
  COLOURS[[...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % COLOURS.length];

const escapeHtml = (s) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** The note as its page shows it (a note past the renderer's budget: its text). */
function showPreview(content) {
  const rendered = renderMarkdown(content);
  preview.innerHTML =
    'html' in rendered
      ? rendered.html
      : `<p class="plain-note">This note is too complex to show formatted: here is its text.</p><pre class="plain-text">${escapeHtml(content)}</pre>`;
}

function showPeople(awareness) {
  $('people').replaceChildren(
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

async function whoAmI(token) {
  const res = await fetch(`${location.origin}/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET /v1/me answered ${res.status}`);
  return res.json();
}

let provider;
let view;

$('open').addEventListener('submit', async (event) => {
  event.preventDefault();
  provider?.destroy();
  view?.destroy();
  const token = $('token').value.trim();
  const noteId = $('note').value.trim();
  const teamPath = $('team').value.trim() || undefined;
  let me;
  try {
    me = await whoAmI(token);
  } catch (err) {
    status.textContent = err.message;
    return;
  }
  const doc = new Y.Doc();
  const text = doc.getText('content');
  provider = new LiveProvider(doc, () => openLive({ api: `${location.origin}/v1`, token, noteId, teamPath }));
  const color = colourOf(me.id ?? me.userPath ?? me.name);
  provider.awareness.setLocalStateField('user', { name: me.name, color, colorLight: `${color}33` });
  provider.awareness.on('change', () => showPeople(provider.awareness));
  const editable = new Compartment();
  view = new EditorView({
    parent: $('editor'),
    state: EditorState.create({
      doc: '',
      extensions: [
        lineNumbers(),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': 'note content' }),
        markdown({ completeHTMLTags: false }),
        keymap.of([...yUndoManagerKeymap, ...defaultKeymap, indentWithTab]),
        yCollab(text, provider.awareness),
        editable.of([EditorState.readOnly.of(true), EditorView.editable.of(false)]),
        // The others' names always show over their carets (y-codemirror.next shows them on hover).
        EditorView.theme({ '.cm-ySelectionInfo': { opacity: 1 } }),
      ],
    }),
  });
  const current = view;
  let rendering = false;
  text.observe(() => {
    // At most one render per frame, however fast the text changes.
    if (rendering) return;
    rendering = true;
    requestAnimationFrame(() => {
      rendering = false;
      showPreview(text.toString());
    });
  });
  showPreview('');
  provider.on('status', ({ status: s }) => {
    if (view !== current) return;
    status.textContent = s;
  });
  provider.on('synced', () => {
    if (view !== current) return;
    const read = provider.access === 'read';
    view.dispatch({
      effects: editable.reconfigure(
        read ? [EditorState.readOnly.of(true), EditorView.editable.of(false)] : [],
      ),
    });
    status.textContent = read ? 'connected (read only)' : 'connected';
    $('editor').dataset.synced = 'true';
    $('editor').dataset.access = provider.access;
  });
  provider.on('error', (e) => {
    status.textContent = `${e.code}: ${e.message}`;
  });
});

/** For scripts and tests: the text in the editor. */
globalThis.liveEditor = { text: () => view?.state.doc.toString() };

// Closing the tab says goodbye: the others drop this cursor at once.
addEventListener('pagehide', () => provider?.destroy());
