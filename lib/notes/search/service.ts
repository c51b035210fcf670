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
  parseQuery,
  type Snippet,
  snippetOfMarkdown,
  teamWorkspace,
  userWorkspace,
  type Workspace,
  workspaceOf,
} from './model.ts';
import type { CandidateFinder, NoteSource, WorkspaceCandidate } from './ports.ts';

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
  /** Notes in the index that match and pass the filters. */
  total: number;
  hits: SearchHit[];
}

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

    const start = (req.page - 1) * req.limit;
    const found = await this.deps.candidates.find(
      workspaces,
      query,
      { tag: req.tag, folderId: req.folderId },
      start + req.limit,
    );
    const page = found.candidates.slice(start, start + req.limit);
    const stored = await this.deps.notes.getNotes(page.map((c) => c.shortId));
    const matched = new Set(found.matched);
    const hits: SearchHit[] = [];
    for (const [i, c] of page.entries()) {
      const hit = this.hit(c, stored[i], req, matched);
      if (hit) hits.push(hit);
    }
    return { total: found.total, hits };
  }

  /** The workspaces searched: the team's (the caller must be a member), else the caller's and all their teams'. */
  private async scope(userId: string, teams: Team[], team?: string): Promise<Workspace[]> {
    if (team === undefined) return [userWorkspace(userId), ...teams.map((t) => teamWorkspace(t.path))];
    if (teams.some((t) => t.path === team)) return [teamWorkspace(team)];
    if (await this.deps.directory.getTeam(team))
      throw new Forbidden(`You are not a member of team "${team}"`);
    throw new NotFound(`Team "${team}" does not exist`);
  }

  /** The candidate as a hit, if the table still has it where it was found, matching the filters. */
  private hit(
    c: WorkspaceCandidate,
    stored: StoredNote | undefined,
    req: SearchRequest,
    matched: Set<string>,
  ): SearchHit | undefined {
    if (!stored || workspaceOf(stored.note) !== c.workspace) return undefined;
    const { note } = stored;
    if (req.tag !== undefined && !note.tags.includes(req.tag)) return undefined;
    if (req.folderId !== undefined && note.parentFolderId !== req.folderId) return undefined;
    return { note, snippet: snippetOfMarkdown(stored.content, matched) };
  }
}
