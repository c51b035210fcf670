// The full-text search operation of the Notes document: an extension (x-extension: HackMD's API and
// HackMD itself cannot search note content). Built from lib/notes/search/schemas.ts.
import type { ErrorType } from '../../lib/http/errors.ts';
import { MAX_PAGE_SIZE, MAX_QUERY_LENGTH, MAX_QUERY_TERMS } from '../../lib/notes/search/model.ts';
import { MAX_PAGE, searchQuery, searchResults } from '../../lib/notes/search/schemas.ts';
import { inputSchema, type PathItem, schema } from './build.ts';

type Errors = (...types: ErrorType[]) => Record<string, unknown>;

const example = {
  results: [
    {
      id: 'Vh5bG9fFS2Wvb3r2xJ9b3A',
      title: 'Résumé of the cluster',
      tags: ['infra'],
      description: '',
      createdAt: 1795860000000,
      lastChangedAt: 1795860300000,
      titleUpdatedAt: null,
      tagsUpdatedAt: null,
      lastChangeUser: null,
      publishType: 'edit',
      publishedAt: null,
      userPath: 'ada',
      teamPath: null,
      permalink: null,
      publishLink: 'https://notes.example/Vh5bG9fFS2',
      shortId: 'Vh5bG9fFS2',
      readPermission: 'owner',
      writePermission: 'owner',
      folderPaths: [],
      snippet: {
        text: 'How we run kubernetes in production.',
        highlights: [{ offset: 11, length: 10 }],
      },
    },
  ],
  pagination: { page: 1, limit: 20, total: 1, hasNext: false },
};

export function searchPaths(errors: Errors): Record<string, PathItem> {
  const query = inputSchema(searchQuery) as { properties: Record<string, unknown>; required?: string[] };
  const parameters = Object.entries(query.properties).map(([name, s]) => ({
    name,
    in: 'query',
    required: (query.required ?? []).includes(name),
    schema: s,
  }));
  return {
    '/v1/search': {
      get: {
        'x-extension': true,
        description:
          'Extension of this API: HackMD cannot search note content. Searches the title, tags and content of ' +
          "the caller's own notes and their teams' notes (with `team`, that team's only: 403 for a team the " +
          'caller is not in, 404 for no such team), best match first (BM25; the title weighs most, then ' +
          'tags). Every word must match; the last also as a prefix; a word of five letters or more that no ' +
          'note holds is taken for a misspelling and matches the words one letter away; accents fold ' +
          '(resume finds résumé); Chinese, Japanese and Korean are ' +
          'found by any two adjacent characters; a "quoted phrase" matches only as that phrase. Markdown ' +
          `syntax (link targets, fences, emphasis) is not text. \`q\`: 1..${MAX_QUERY_LENGTH} characters; ` +
          `words after the first ${MAX_QUERY_TERMS} are ignored; a query with no word is 400. Pages of ` +
          `1..${MAX_PAGE_SIZE} (default 20), up to page ${MAX_PAGE}. Each result is the note as listed plus a ` +
          'snippet of its text with the matched words as {offset, length} ranges (UTF-16 code units). A ' +
          'note leaves the results as soon as it is deleted or trashed or its team is left; an edit is ' +
          'found within seconds. Decisions: docs/search.md.',
        parameters,
        responses: {
          200: {
            description: 'One page of results',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/SearchResults' }, example },
            },
          },
          ...errors('bad_request', 'forbidden', 'not_found'),
        },
      },
    },
  };
}

export const searchSchemas = () => ({ SearchResults: schema(searchResults) });
