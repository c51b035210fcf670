// The note pages' routes in openapi/notes.json (lib/notes/pages): HTML for browsers, no token.
import type { PathItem } from './build.ts';

const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});
const headers = {
  ETag: {
    description: "The page's entity tag (the note's version and the stylesheet's)",
    schema: { type: 'string' },
  },
  'Cache-Control': { description: 'public, max-age=60', schema: { type: 'string' } },
  'Content-Security-Policy': {
    description:
      'No script, no inline style; styles and images from the page origin (images also from the image host); sandboxed; never framed',
    schema: { type: 'string' },
  },
};
const notFound = {
  description:
    'The same for every address that shows nothing: no such note, not readable by guests, trashed or deleted. ' +
    'HTML for a browser (Accept: text/html), else the JSON error {code, message, description, error}.',
  content: {
    'text/html': { schema: { type: 'string' } },
    'application/json': { schema: { type: 'object' } },
  },
};
const page = (parameters: unknown[]): PathItem => ({
  get: {
    description:
      'The note rendered from its markdown (CommonMark, tables, task lists, footnotes, highlighted code, ' +
      'heading anchors, [TOC]), with its title, tags, last change and author. Only a note whose ' +
      "readPermission is guest has a page. Raw HTML is sanitised by an allow-list. If-None-Match with the page's ETag answers 304.",
    security: [] as [],
    parameters: [
      ...parameters,
      { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
    ],
    'x-extension': true,
    responses: {
      200: { ...html('The page'), headers },
      304: { description: 'Not modified: If-None-Match lists the ETag', headers },
      404: notFound,
    },
  },
});
const param = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

export const pagePaths = (): Record<string, PathItem> => ({
  '/{address}': page([param('address', "The note's shortId")]),
  '/{address}/{permalink}': page([
    param('address', '@ and the userPath of the owner, or the teamPath of a team note'),
    param('permalink', "The note's permalink"),
  ]),
  '/_page/{asset}': {
    get: {
      description: 'Its name carries its version (pages link the current one); cached for a year.',
      security: [],
      parameters: [param('asset', 'notes-<version>.css, as a page links it')],
      'x-extension': true,
      responses: {
        200: { description: 'The stylesheet', content: { 'text/css': { schema: { type: 'string' } } } },
        404: notFound,
      },
    },
  },
});
