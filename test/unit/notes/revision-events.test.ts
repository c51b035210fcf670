// Webhook events of note versions and comments (version.created, comment.created, comment.resolved,
// comment.reopened): the catalogue's rules, the router's body and reads, and the template's stream
// filters applied to items as the adapters write them.
import { marshall } from '@aws-sdk/util-dynamodb';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { passesFilters } from '../../../infra/local/event-filter.ts';
import { loadTemplate } from '../../../infra/local/template.ts';
import { revisionKeys } from '../../../lib/data/keys.ts';
import { toComment } from '../../../lib/notes/revisions/adapters/dynamo-comments.ts';
import { toVersion } from '../../../lib/notes/revisions/adapters/dynamo-versions.ts';
import { changesOf as changesWith } from '../../../lib/notes/webhooks/adapters/stream-changes.ts';
import type { CommentRecord, CommentState } from '../../../lib/notes/revisions/comments.ts';
import { eventsOf, type NoteState, type TableChange } from '../../../lib/notes/webhooks/events/catalogue.ts';
import { type DeliveryJob, routeChanges } from '../../../lib/notes/webhooks/events/router.ts';
import type { VersionRecord } from '../../../lib/notes/revisions/versions.ts';
import { webhookEvent } from '../../../lib/notes/webhooks/response-schemas.ts';
import { noteRecord, webhookRecord } from '../../support/note-record.ts';

const changesOf = (records: Parameters<typeof changesWith>[0]) =>
  changesWith(records, { toVersion, toComment });

const note = noteRecord;
const live: NoteState = { note: note() };
const alice = { user_id: 'u1', display_name: 'Alice', photo: '' };
const version = (over: Partial<VersionRecord> = {}): VersionRecord => ({
  id: '019ab000-0000-7000-8000-000000000001',
  name: null,
  nameSource: 'system',
  description: null,
  createdAt: 2000,
  updatedAt: 2000,
  createdBy: null,
  authorship: [alice],
  contentHash: 'h',
  bytes: 10,
  expiresAt: 99_000,
  ...over,
});
const named = (over: Partial<VersionRecord> = {}) =>
  version({ name: 'v1', nameSource: 'user', createdBy: alice, expiresAt: null, ...over });
const open: CommentState = { status: 'open', reason: null, actedBy: null, actedAt: null };
const actor = { kind: 'user' as const, userId: 'u1', displayName: 'Alice' };
const hidden: CommentState = { status: 'hidden', reason: 'resolved', actedBy: actor, actedAt: 5000 };
const comment = (over: Partial<CommentRecord> = {}): CommentRecord => ({
  id: 'c1',
  threadId: 'c1',
  authorId: 'u1',
  authorName: 'Alice',
  body: 'Why?',
  state: open,
  anchor: { offset: 0, length: 3 },
  anchorBase: 'h',
  excerpt: 'abc',
  createdAt: 3000,
  updatedAt: 3000,
  isThreadHead: true,
  replyCount: 0,
  threadState: { ...open, sourceCommentId: 'c1' },
  rev: 1,
  ...over,
});
const resolvedHead = (over: Partial<CommentRecord> = {}) =>
  comment({
    state: hidden,
    threadState: { ...hidden, sourceCommentId: 'c1' },
    updatedAt: 5000,
    rev: 2,
    ...over,
  });
const reply = comment({ id: 'c2', isThreadHead: false, threadState: null, anchor: null, excerpt: null });

const versionChange = (before?: VersionRecord, after?: VersionRecord, n: NoteState | null = live) =>
  ({
    kind: 'version',
    id: 'e',
    noteShortId: 'abcdefghij',
    at: 7000,
    before,
    after,
    note: n ?? undefined,
  }) as TableChange;
const commentChange = (before?: CommentRecord, after?: CommentRecord, n: NoteState | null = live) =>
  ({
    kind: 'comment',
    id: 'e',
    noteShortId: 'abcdefghij',
    at: 7000,
    before,
    after,
    note: n ?? undefined,
  }) as TableChange;
const types = (c: TableChange) => eventsOf(c).map((e) => e.type);

describe('catalogue: version.created', () => {
  it('a new named version is version.created at its creation', () => {
    const [e] = eventsOf(versionChange(undefined, named()));
    expect(e).toMatchObject({ type: 'version.created', createdAt: 2000, version: { name: 'v1' } });
  });
  it('a system version named in place is version.created at the naming (the stream record time)', () => {
    const [e] = eventsOf(versionChange(version(), named()));
    expect(e).toMatchObject({ type: 'version.created', createdAt: 7000 });
  });
  it('new system versions, their coalescing, renames and expiry are no events', () => {
    expect(types(versionChange(undefined, version()))).toEqual([]);
    expect(types(versionChange(version(), version({ updatedAt: 3000, contentHash: 'g' })))).toEqual([]);
    expect(types(versionChange(named(), named({ name: 'v2' })))).toEqual([]);
    expect(types(versionChange(version(), undefined))).toEqual([]);
  });
  it('a trashed or gone note has no version events', () => {
    expect(types(versionChange(undefined, named(), { note: note(), deletedAt: 1 }))).toEqual([]);
    expect(types(versionChange(undefined, named(), null))).toEqual([]);
  });
});

describe('catalogue: comment events', () => {
  it('a thread head and a reply are each comment.created', () => {
    expect(types(commentChange(undefined, comment()))).toEqual(['comment.created']);
    expect(types(commentChange(undefined, reply))).toEqual(['comment.created']);
  });
  it("a thread head's threadState open → hidden is comment.resolved, hidden → open comment.reopened", () => {
    const [resolved] = eventsOf(commentChange(comment(), resolvedHead()));
    expect(resolved).toMatchObject({ type: 'comment.resolved', createdAt: 5000 });
    const reopened = resolvedHead({
      threadState: { ...open, actedBy: actor, actedAt: 6000, sourceCommentId: 'c1' },
    });
    expect(types(commentChange(resolvedHead(), reopened))).toEqual(['comment.reopened']);
  });
  it('edits, reply counts, a reply resolving its own state and deletions are no events', () => {
    expect(types(commentChange(comment(), comment({ body: 'Edited', rev: 2 })))).toEqual([]);
    expect(types(commentChange(resolvedHead(), resolvedHead({ replyCount: 1, rev: 3 })))).toEqual([]);
    expect(types(commentChange(reply, { ...reply, state: hidden }))).toEqual([]);
    expect(types(commentChange(comment(), undefined))).toEqual([]);
  });
  it('a comment of a trashed note is no event', () => {
    expect(types(commentChange(undefined, comment(), { note: note(), deletedAt: 1 }))).toEqual([]);
  });
});

describe('router: version and comment bodies', () => {
  const hook = webhookRecord;
  const route = async (changes: TableChange[], notes: Record<string, NoteState>, hooks = [hook()]) => {
    const jobs: DeliveryJob[] = [];
    const reads: string[] = [];
    await routeChanges(changes, {
      hooksOf: async () => hooks,
      foldersOf: async () => [
        { id: 'f', name: 'F', description: null, icon: null, color: null, parentFolderId: null } as never,
      ],
      userPathOf: async () => 'alice',
      openWindows: async () => {},
      noteOf: async (shortId) => {
        reads.push(shortId);
        return notes[shortId];
      },
      enqueue: async (j) => {
        jobs.push(...j);
      },
    });
    return { jobs, reads, bodies: jobs.map((j) => JSON.parse(j.body)) };
  };
  const strip = (c: TableChange) => ({ ...c, note: undefined }) as TableChange;

  it('reads each note once per batch; bodies carry the note as listed and the version or comment', async () => {
    const { bodies, reads } = await route(
      [
        versionChange(undefined, named()),
        commentChange(undefined, comment()),
        commentChange(comment(), resolvedHead()),
      ].map(strip),
      { abcdefghij: live },
    );
    expect(reads).toEqual(['abcdefghij']);
    expect(bodies.map((b) => b.type)).toEqual(['version.created', 'comment.created', 'comment.resolved']);
    for (const b of bodies) {
      expect(v.parse(webhookEvent, b)).toEqual(b);
      expect(b.workspace).toEqual({ type: 'user', path: 'alice' });
      expect(b.data.note.id).toBe('abcdefghijklmnopqrstuv');
      expect(b.data.note).not.toHaveProperty('content');
    }
    expect(bodies[0].data.version).toMatchObject({ name: 'v1', name_source: 'user', created_by: alice });
    expect(bodies[0].data.version).not.toHaveProperty('content');
    expect(bodies[1].data.comment).toMatchObject({
      id: 'c1',
      body: 'Why?',
      isThreadHead: true,
      excerpt: 'abc',
    });
    expect(bodies[1].data.comment).not.toHaveProperty('currentAnchor');
    expect(bodies[2].data.comment.threadState).toMatchObject({ status: 'hidden', actedBy: actor });
  });
  it("a reply is shown as listed (no threadState); a folder scope applies to the note's folder", async () => {
    const inF = { note: note({ parentFolderId: 'f' }) };
    const scoped = [
      hook({ id: 'in', scope: { type: 'folder', folderId: 'f' } }),
      hook({ id: 'out', scope: { type: 'folder', folderId: 'g' } }),
    ];
    const { jobs, bodies } = await route(
      [strip(commentChange(undefined, reply))],
      { abcdefghij: inF },
      scoped,
    );
    expect(jobs.map((j) => j.hookId)).toEqual(['in']);
    expect(bodies[0].data.comment).toMatchObject({ id: 'c2', isThreadHead: false });
    expect(bodies[0].data.comment).not.toHaveProperty('threadState');
    expect(v.parse(webhookEvent, bodies[0])).toEqual(bodies[0]);
  });
});

describe("the template's stream filters and the stream reader", () => {
  const patterns: string[] =
    loadTemplate().Resources.NotesRouteWebhookEventsFunction.Properties!.Events.TableChanges.Properties.FilterCriteria.Filters.map(
      (f: { Pattern: string }) => f.Pattern,
    );
  // Items of a workspace with a webhook: marked `hooked` (test/notes/webhook-marks.test.ts drops unmarked ones).
  const versionItem = (v: VersionRecord) => ({
    ...revisionKeys.version('abcdefghij', v.id),
    type: 'note-version',
    noteShortId: 'abcdefghij',
    ...v,
    hooked: true,
  });
  const commentItem = (c: CommentRecord) => ({
    ...revisionKeys.comment('abcdefghij', c.id),
    type: 'note-comment',
    noteShortId: 'abcdefghij',
    ...c,
    hooked: true,
  });
  const record = (eventName: string, before?: object, after?: object) => ({
    eventID: 'ev1',
    eventName,
    dynamodb: {
      ApproximateCreationDateTime: 7,
      ...(before ? { OldImage: marshall(before, { removeUndefinedValues: true }) } : {}),
      ...(after ? { NewImage: marshall(after, { removeUndefinedValues: true }) } : {}),
    },
  });
  /** The event types a record becomes when it passes the filters (null: filtered out). */
  const through = (r: ReturnType<typeof record>) =>
    passesFilters(patterns, r)
      ? changesOf([r as never])
          .flatMap((c) => eventsOf({ ...c, note: live } as TableChange))
          .map((e) => e.type)
      : null;

  it('pass named versions, new comments and resolutions; drop system versions and plain comment edits', () => {
    expect(through(record('INSERT', undefined, versionItem(named())))).toEqual(['version.created']);
    expect(through(record('MODIFY', versionItem(version()), versionItem(named())))).toEqual([
      'version.created',
    ]);
    expect(through(record('INSERT', undefined, versionItem(version())))).toBeNull();
    expect(
      through(record('MODIFY', versionItem(version()), versionItem(version({ updatedAt: 9 })))),
    ).toBeNull();
    expect(through(record('INSERT', undefined, commentItem(reply)))).toEqual(['comment.created']);
    expect(through(record('MODIFY', commentItem(comment()), commentItem(resolvedHead())))).toEqual([
      'comment.resolved',
    ]);
    expect(
      through(record('MODIFY', commentItem(comment()), commentItem(comment({ body: 'x', rev: 2 })))),
    ).toBeNull();
    expect(through(record('REMOVE', commentItem(comment())))).toBeNull();
    // The version body and the anchor base never pass.
    expect(
      through(
        record('INSERT', undefined, {
          ...revisionKeys.versionBody('abcdefghij', 'v'),
          type: 'note-version-body',
        }),
      ),
    ).toBeNull();
    expect(
      through(
        record('INSERT', undefined, {
          ...revisionKeys.anchorBase('abcdefghij', 'h'),
          type: 'note-anchor-base',
        }),
      ),
    ).toBeNull();
  });
  it('the stream reader keeps the record time and a stable event id', () => {
    const [c] = changesOf([record('MODIFY', versionItem(version()), versionItem(named())) as never]);
    expect(c).toMatchObject({ kind: 'version', id: 'msg_ev1', at: 7000, noteShortId: 'abcdefghij' });
  });
  it("stays within Lambda's default quota of 5 filters per event source mapping", () => {
    expect(patterns.length).toBeLessThanOrEqual(5);
  });
});
