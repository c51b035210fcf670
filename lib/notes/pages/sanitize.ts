// The allow-list every rendered note passes (sanitize-html): only the elements and attributes
// markdown and HackMD's HTML subset need; links only to http(s), mailto and the page itself (so
// no `javascript:` or `data:`), no event handlers, no style (the page's CSP allows its own
// stylesheet only: a table cell's alignment becomes a class). An image is shown only from the
// API's image host (the CSP's img-src); any other image becomes a link to it.
import sanitizeHtml from 'sanitize-html';
import { config } from '../../config.ts';

const ALIGN = /text-align:\s*(left|right|center)/;

/** The image host's base, with its trailing slash: an image's src must start with it. */
const imageBase = () => `${config.imageBaseUrl}/`;

const aligned = (tagName: string, attribs: sanitizeHtml.Attributes) => {
  const align = ALIGN.exec(attribs.style ?? '')?.[1];
  const { style: _, ...rest } = attribs;
  return { tagName, attribs: align ? { ...rest, class: `align-${align}` } : rest };
};

const options: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'input',
    'del',
    's',
    'ins',
    'mark',
    'details',
    'summary',
    'section',
  ],
  allowedAttributes: {
    a: ['href', 'id', 'title', 'class'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    input: ['type', 'checked', 'disabled', 'class'],
    h1: ['id'],
    h2: ['id'],
    h3: ['id'],
    h4: ['id'],
    h5: ['id'],
    h6: ['id'],
    li: ['id', 'class'],
    ol: ['start'],
    th: ['class'],
    td: ['class'],
    '*': ['class'],
  },
  allowedClasses: {
    '*': [
      'hljs',
      'hljs-*',
      'language-*',
      'task-list-item',
      'task-list-item-checkbox',
      'contains-task-list',
      'footnote*',
      'footnotes*',
      'table-of-contents',
      'tags',
      'align-left',
      'align-right',
      'align-center',
    ],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // A tag off the list is shown as text (its attributes dropped), as HackMD's filter does: nothing
  // the writer typed disappears, even when an unclosed <script> makes the rest of the note one HTML block.
  disallowedTagsMode: 'escape',
  transformTags: {
    th: aligned,
    td: aligned,
    input: (tagName, attribs) =>
      attribs.type === 'checkbox'
        ? { tagName, attribs: { ...attribs, disabled: '' } }
        : { tagName: 'span', attribs: {} },
    img: (tagName, attribs) =>
      (attribs.src ?? '').startsWith(imageBase())
        ? { tagName, attribs }
        : { tagName: 'a', attribs: { href: attribs.src ?? '' }, text: attribs.alt || attribs.src || '' },
  },
};

export const sanitize = (html: string): string => sanitizeHtml(html, options);
