// Full-text search of every note a caller may read: their own notes and their teams' notes (one index
// per workspace, ./engine.ts). Access is decided when the search answers, never by the index: the
// caller's teams are read then, and the hits are read from the table (strongly consistent) before they are
// shown, so a note deleted, trashed, moved out of a filter, or in a team the caller left is never a
// hit, even while the index still holds it.
import { BadInput, Forbidden, NotFound, Unauthenticated } from '../../domain/errors.ts';
import type { Team } from '../../identity/model.ts';
import type { NoteRecord } from '../kernel/model.ts';
import type { Directory, StoredNote } from '../kernel/ports.ts';
import {
  hasPhrase,
  MAX_PHRASE_CANDIDATES,
  parseQuery,
  type Snippet,
  snippetOf,
  teamWorkspace,
  userWorkspace,
  type Workspace,
  workspaceOf,
} from './model.ts';
import type { CandidateFinder, NoteSource, WorkspaceCandidate } from './ports.ts';
import { plainText, termsOf } from './text.ts';

export interface SearchRequest {
  q: string;
  team?: string;
  tag?: string;
  folderId?: string;
  page: number;
  limit: number;
}

export interface SearchHit {
  note: NoteRecord;
  snippet: Snippet;
}

export interface SearchPage {
  /** Hits in the index that pass the filters (an upper bound with a quoted phrase: see docs/search.md). */
  total: number;
  hits: SearchHit[];
}

/** Candidates of a phrase query read from the table at once (one BatchGetItem request). */
const PHRASE_BATCH = 50;

export interface SearchDependencies {
  directory: Pick<Directory, 'getUserWithTeams' | 'getTeam'>;
  /** The engine: the notes of some workspaces that match a query (./loaded-indexes.ts). */
  candidates: CandidateFinder;
  /** The notes read to check each hit (one BatchGetItem per 50). */
  notes: Pick<NoteSource, 'getNotes'>;
}

export class SearchService {
  constructor(private readonly deps: SearchDependencies) {}

  async search(userId: string, req: SearchRequest): Promise<SearchPage> {
    const query = parseQuery(req.q);
    if (query.terms.length === 0)
      throw new BadInput('The query has no words to search for', {
        fields: [{ field: 'q', message: 'must contain at least one word' }],
      });
    const me = await this.deps.directory.getUserWithTeams(userId);
    if (!me) throw new Unauthenticated('The token belongs to a user that no longer exists');
    const workspaces = await this.scope(userId, me.teams, req.team);

    const candidates = await this.deps.candidates.find(workspaces, query, {
      tag: req.tag,
      folderId: req.folderId,
    });
    candidates.sort((a, b) => b.score - a.score || a.shortId.localeCompare(b.shortId));

    const start = (req.page - 1) * req.limit;
    if (query.phrases.length === 0) {
      const page = candidates.slice(start, start + req.limit);
      const hits = await this.check(page, req, query.phrases);
      return { total: candidates.length, hits };
    }
    // A phrase is checked in each candidate's text, best first, PHRASE_BATCH at a time, until the page is full.
    const hits: SearchHit[] = [];
    let seen = 0;
    let checked = 0;
    const checkable = candidates.slice(0, MAX_PHRASE_CANDIDATES);
    for (let i = 0; i < checkable.length && hits.length < req.limit; i += PHRASE_BATCH) {
      const batch = checkable.slice(i, i + PHRASE_BATCH);
      checked += batch.length;
      for (const hit of await this.check(batch, req, query.phrases)) {
        if (seen >= start && hits.length < req.limit) hits.push(hit);
        seen += 1;
      }
    }
    // Unchecked candidates may match too: counted, so `total` is an upper bound and hasNext holds.
    return { total: hits.length === req.limit ? seen + candidates.length - checked : seen, hits };
  }

  /** The workspaces searched: the team's (the caller must be a member), else the caller's and all their teams'. */
  private async scope(userId: string, teams: Team[], team?: string): Promise<Workspace[]> {
    if (team === undefined) return [userWorkspace(userId), ...teams.map((t) => teamWorkspace(t.path))];
    if (teams.some((t) => t.path === team)) return [teamWorkspace(team)];
    if (await this.deps.directory.getTeam(team))
      throw new Forbidden(`You are not a member of team "${team}"`);
    throw new NotFound(`Team "${team}" does not exist`);
  }

  /** The candidates the table still has where they were found, matching the filters and phrases, as hits. */
  private async check(
    candidates: WorkspaceCandidate[],
    req: SearchRequest,
    phrases: string[][],
  ): Promise<SearchHit[]> {
    const stored = await this.deps.notes.getNotes(candidates.map((c) => c.shortId));
    const hits: SearchHit[] = [];
    for (const [i, c] of candidates.entries()) {
      const hit = this.hit(c, stored[i], req, phrases);
      if (hit) hits.push(hit);
    }
    return hits;
  }

  private hit(
    c: WorkspaceCandidate,
    stored: StoredNote | undefined,
    req: SearchRequest,
    phrases: string[][],
  ): SearchHit | undefined {
    if (!stored || workspaceOf(stored.note) !== c.workspace) return undefined;
    const { note } = stored;
    if (req.tag !== undefined && !note.tags.includes(req.tag)) return undefined;
    if (req.folderId !== undefined && note.parentFolderId !== req.folderId) return undefined;
    const text = plainText(stored.content);
    if (phrases.length) {
      const terms = [...termsOf(note.title), ...termsOf(text)];
      if (!phrases.every((p) => hasPhrase(terms, p))) return undefined;
    }
    return { note, snippet: snippetOf(text, new Set(c.matched)) };
  }
}
