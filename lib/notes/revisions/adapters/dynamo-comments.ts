// DynamoDB adapter of the comments store (lib/notes/revisions/comments.ts). Items (lib/data/keys.ts revisionKeys):
//   NOTECOMMENTS#<shortId> / COMMENT#<id>            one comment (type note-comment), `rev` its lock
//   NOTECOMMENTS#<shortId> / ANCHORBASE#<sha256>     the content anchors were written on (Brotli, `z`)
//   NOTECOMMENTS#<shortId> / ANCHORRUNS#<base>#<live> how one content maps into another (the diff's
//                                                    runs as gaps and lengths, Brotli), `ttl` 30 days
// The webhook router emits comment.created (INSERT of a note-comment item), comment.resolved and
// comment.reopened (a thread head's threadState changing) from these items (lib/notes/webhooks/events/catalogue.ts).
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../../../config.ts';
import { documentClient, queryAll } from '../../../data/dynamo.ts';
import { isConditionFailure, storeFailure, transactionOutcome } from '../../../data/failures.ts';
import { revisionKeys as k } from '../../../data/keys.ts';
import { Conflict, NotFound } from '../../../domain/errors.ts';
import { fromDeltas, type Runs, toDeltas } from '../anchors.ts';
import { type CommentRecord, type CommentStore, MAX_REPLIES } from '../comments.ts';
import { pack, unpack } from '../../kernel/adapters/packed-content.ts';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const FIELDS = [
  'id',
  'threadId',
  'authorId',
  'authorName',
  'body',
  'state',
  'anchor',
  'anchorBase',
  'excerpt',
  'excerptTruncated',
  'createdAt',
  'updatedAt',
  'isThreadHead',
  'replyCount',
  'threadState',
  'rev',
] as const;
export const toComment = (i: Item): CommentRecord =>
  Object.fromEntries(FIELDS.map((f) => [f, i[f] ?? null])) as unknown as CommentRecord;

/**
 * The writes of one change, all or none; the reasons of a cancelled one (undefined when it
 * committed). Several items (a reply and its thread's count, a comment and its anchor base): a
 * transaction. One item: one conditional write, the same outcome at half the write units.
 */
const transact = async (items: TransactItem[]): Promise<string[] | undefined> => {
  if (items.length !== 1)
    return transactionOutcome(documentClient().send(new TransactWriteCommand({ TransactItems: items })));
  const { Put, Delete, Update } = items[0];
  try {
    if (Put) await documentClient().send(new PutCommand(Put));
    else if (Delete) await documentClient().send(new DeleteCommand(Delete));
    else if (Update) await documentClient().send(new UpdateCommand(Update));
    return undefined;
  } catch (err) {
    if (isConditionFailure(err)) return ['ConditionalCheckFailed'];
    throw storeFailure(err);
  }
};

const table = () => config.tableName;
/** DynamoDB's limit on the items of one transaction. */
const MAX_TRANSACTION_ITEMS = 100;
const put = (shortId: string, c: CommentRecord, condition: Item): TransactItem => ({
  Put: {
    TableName: table(),
    Item: { ...k.comment(shortId, c.id), type: 'note-comment', noteShortId: shortId, ...c },
    ...condition,
  } as never,
});
const atRev = (rev: number) => ({
  ConditionExpression: 'rev = :rev',
  ExpressionAttributeValues: { ':rev': rev },
});
const countReplies = (shortId: string, headId: string, delta: number): TransactItem => ({
  Update: {
    TableName: table(),
    Key: k.comment(shortId, headId),
    // Bumps rev too, so a resolution written from an older read of the head fails and re-reads.
    UpdateExpression: 'ADD replyCount :d, rev :one',
    // A reply counts in only below the cap: the cap holds however many replies race.
    ConditionExpression: delta > 0 ? 'attribute_exists(PK) AND replyCount < :max' : 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':d': delta, ':one': 1, ...(delta > 0 ? { ':max': MAX_REPLIES } : {}) },
  },
});

// One exported function per CommentStore method, so a function's bundle and role hold only the ones
// its wiring getter names (lib/notes/revisions/wiring.ts); dynamoCommentStore() gathers them all.

/** CommentStore.list */
export async function listComments(shortId: string): Promise<CommentRecord[]> {
  const items = await queryAll({
    TableName: table(),
    ConsistentRead: true,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
    ExpressionAttributeValues: { ':pk': k.commentsPartition(shortId), ':sk': k.commentPrefix },
  });
  return items.map(toComment);
}

/** CommentStore.get */
export async function getComment(shortId: string, commentId: string): Promise<CommentRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.comment(shortId, commentId), ConsistentRead: true }),
  );
  return Item && toComment(Item);
}

/** CommentStore.create */
export async function createComment(
  shortId: string,
  c: CommentRecord,
  base?: { hash: string; content: string },
): Promise<void> {
  const items = [put(shortId, c, { ConditionExpression: 'attribute_not_exists(PK)' })];
  if (!c.isThreadHead) items.push(countReplies(shortId, c.threadId, 1));
  if (base)
    items.push({
      Put: {
        TableName: table(),
        Item: { ...k.anchorBase(shortId, base.hash), type: 'note-anchor-base', z: pack(base.content) },
      },
    });
  // Transaction (with more than the comment): a reply and its thread's count, or a comment and its anchor base.
  const why = await transact(items);
  if (!why) return;
  if (why.includes('TransactionConflict'))
    throw new Conflict('The thread changed meanwhile', { reason: 'busy' });
  if (!c.isThreadHead && why[1] === 'ConditionalCheckFailed') {
    const head = await getComment(shortId, c.threadId);
    if (head) throw new Conflict('The thread has its most replies', { reason: 'replies' });
  }
  throw new NotFound('The thread is gone');
}

/** CommentStore.save */
export async function saveComments(shortId: string, changed: CommentRecord[]): Promise<boolean> {
  // Transaction (with more than one comment): a comment's state and its thread head's change together.
  return !(await transact(changed.map((c) => put(shortId, c, atRev(c.rev - 1)))));
}

/** CommentStore.remove */
export async function removeComments(
  shortId: string,
  removed: CommentRecord[],
  head?: CommentRecord,
): Promise<boolean> {
  const items: TransactItem[] = removed.map((c) => ({
    Delete: { TableName: table(), Key: k.comment(shortId, c.id), ...atRev(c.rev) },
  }));
  if (head) items.push(countReplies(shortId, head.id, -1));
  // The cap keeps a thread to one transaction (its head and MAX_REPLIES replies). A thread that grew
  // past it before the cap was in the write's condition has its newest replies deleted first, in
  // transactions of their own; its head goes with the last (a retry deletes what a failure left).
  while (items.length > MAX_TRANSACTION_ITEMS) {
    if (await transact(items.splice(-MAX_TRANSACTION_ITEMS))) return false;
  }
  return !(await transact(items));
}

/** CommentStore.base */
export async function anchorBase(shortId: string, hash: string): Promise<string | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.anchorBase(shortId, hash) }),
  );
  return Item?.z ? unpack(Item.z as Uint8Array) : undefined;
}

/** Stored runs live this long: a mapping is only read while its live content is the note's content. */
const RUNS_TTL_S = 30 * 24 * 60 * 60;
/** Runs that pack larger than this are not stored (DynamoDB's item limit is 400 KB). */
const MAX_PACKED_RUNS = 300_000;

/** CommentStore.runs */
export async function anchorRuns(
  shortId: string,
  baseHash: string,
  liveHash: string,
): Promise<Runs | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: k.anchorRuns(shortId, baseHash, liveHash) }),
  );
  return Item?.z ? fromDeltas(JSON.parse(unpack(Item.z as Uint8Array))) : undefined;
}

/** CommentStore.keepRuns */
export async function keepAnchorRuns(shortId: string, baseHash: string, liveHash: string, runs: Runs) {
  const z = pack(JSON.stringify(toDeltas(runs)));
  if (z.length > MAX_PACKED_RUNS) return;
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...k.anchorRuns(shortId, baseHash, liveHash),
        type: 'note-anchor-runs',
        z,
        ttl: Math.ceil(Date.now() / 1000) + RUNS_TTL_S,
      },
    }),
  );
}

/** Every method (contract tests, the full service); functions wire only what they call. */
export const dynamoCommentStore = (): CommentStore => ({
  list: listComments,
  get: getComment,
  create: createComment,
  save: saveComments,
  remove: removeComments,
  base: anchorBase,
  runs: anchorRuns,
  keepRuns: keepAnchorRuns,
});
