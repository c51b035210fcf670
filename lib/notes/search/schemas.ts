// valibot schemas of the search route: its query (failures are 400) and its answer (the OpenAPI
// document and the tests' response checks are built from them).
import * as v from 'valibot';
import { object } from '../../domain/schema.ts';
import { int, queryInt } from '../../domain/schema-numbers.ts';
import { MAX_TAG_LENGTH } from '../kernel/model.ts';
import { folderId, teamPath } from '../kernel/params.ts';
import { note } from '../kernel/response-schemas.ts';
import { MAX_PAGE_SIZE, MAX_QUERY_LENGTH } from './model.ts';

/** Pages past this one are not served (deep paging of a ranked list is not a use; refine the query). */
export const MAX_PAGE = 50;

export const searchQuery = object({
  q: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`),
  ),
  team: v.optional(teamPath),
  tag: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_TAG_LENGTH))),
  folderId: v.optional(folderId),
  page: v.optional(queryInt(1, MAX_PAGE)),
  limit: v.optional(queryInt(1, MAX_PAGE_SIZE)),
});

const range = v.strictObject({
  offset: v.pipe(int(), v.description('UTF-16 code units from the start of snippet.text')),
  length: int(),
});
export const searchHit = v.strictObject({
  ...note.entries,
  snippet: v.strictObject({
    text: v.pipe(v.string(), v.description('a passage of the note, markdown syntax left out')),
    highlights: v.array(range),
  }),
});
export const searchResults = v.strictObject({
  results: v.array(searchHit),
  pagination: v.strictObject({
    page: int(),
    limit: int(),
    total: v.pipe(int(), v.description('matching notes')),
    hasNext: v.boolean(),
  }),
});
