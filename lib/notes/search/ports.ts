// What search needs from storage (./adapters: S3 objects with a DynamoDB head item; memory-* for unit
// tests). A workspace's index is SEGMENTS serialized objects (model.ts, segmentOf); each segment's
// generations are told apart by the workspace's head.
import type { StoredNote } from '../kernel/ports.ts';
import type { Query, Workspace } from './model.ts';

/** The current generation of one segment of a workspace's index. */
export interface IndexHead {
  workspace: Workspace;
  segment: number;
  generation: number;
  /** Where the generation's serialized index is (an object key). */
  location: string;
  notes: number;
}

export interface IndexStore {
  /** The heads of the segments each workspace has an index of (strongly consistent). */
  heads(workspaces: Workspace[]): Promise<Map<Workspace, IndexHead[]>>;
  /** The saved segment of a generation; undefined when a newer generation already replaced it. */
  load(head: IndexHead): Promise<Uint8Array | undefined>;
  /**
   * Stores `data` as the generation of the segment after `previous` (undefined: the segment's first),
   * if its head is still `previous`; undefined when another writer stored a generation first
   * (nothing changed).
   */
  save(
    workspace: Workspace,
    segment: number,
    previous: IndexHead | undefined,
    data: Uint8Array,
    notes: number,
  ): Promise<IndexHead | undefined>;
  /** A rebuild's saved progress (an opaque document), to resume it; undefined when none. */
  loadCheckpoint(workspace: Workspace): Promise<Uint8Array | undefined>;
  saveCheckpoint(workspace: Workspace, data: Uint8Array): Promise<void>;
  dropCheckpoint(workspace: Workspace): Promise<void>;
}

/** The notes as the table holds them now. */
export interface NoteSource {
  /** The notes, in the order asked (undefined for each deleted or in the trash), strongly consistent. */
  getNotes(shortIds: string[]): Promise<(StoredNote | undefined)[]>;
  /** One page (at most `pageSize`) of the shortIds of a workspace's notes; `cursor` continues. */
  listShortIds(
    workspace: Workspace,
    cursor?: string,
    pageSize?: number,
  ): Promise<{ shortIds: string[]; cursor?: string }>;
}

/** A note of a workspace that matches a query, as the engine ranks it. */
export interface WorkspaceCandidate {
  workspace: Workspace;
  shortId: string;
  /** Higher is better; scores of one search compare across workspaces and segments. */
  score: number;
}

/** What the engine found: the best candidates, how many match in all, and the terms a snippet marks. */
export interface Candidates {
  candidates: WorkspaceCandidate[];
  total: number;
  matched: string[];
}

/**
 * The search engine as the search service sees it: today SQLite FTS5 segments loaded from S3
 * (../loaded-indexes.ts); a managed engine (OpenSearch Serverless) would be another implementation.
 */
export interface CandidateFinder {
  /** The best `want` notes of the workspaces that match the query and filter, best first. */
  find(
    workspaces: Workspace[],
    query: Query,
    filter: { tag?: string; folderId?: string },
    want: number,
  ): Promise<Candidates>;
}
