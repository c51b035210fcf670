// Prices every DynamoDB request of a metered invocation as AWS bills it (infra/bench/billing.ts): a
// recorder that reads each written item before and after the request, and the items a read returns
// as stored, through the same client outside the meter (those reads are not the route's). Installed
// by `npm run bench` and by tests; the invocations it prices take a few more local requests each.
import { fileURLToPath } from 'node:url';
import {
  DescribeTableCommand,
  type DynamoDBClient,
  GetItemCommand,
  QueryCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import {
  conditionCheckUnits,
  failedWriteUnits,
  getItemUnits,
  type IndexShape,
  itemWriteUnits,
  queryUnits,
  type StoredItem,
  type TableShape,
} from './billing.ts';
import { type Biller, type DynamoMeter, installBiller, unmetered } from '../../lib/data/metering.ts';

type Input = Record<string, any>;
const shapes = new Map<string, Promise<TableShape>>();

function shapeOf(client: DynamoDBClient, TableName: string): Promise<TableShape> {
  let shape = shapes.get(TableName);
  if (!shape) {
    shape = unmetered(() => client.send(new DescribeTableCommand({ TableName }))).then(({ Table }) => ({
      keys: (Table?.KeySchema ?? []).map((k) => k.AttributeName!),
      indexes: (Table?.GlobalSecondaryIndexes ?? []).map(
        (i): IndexShape => ({
          name: i.IndexName!,
          keys: (i.KeySchema ?? []).map((k) => k.AttributeName!),
          projection: (i.Projection?.ProjectionType ?? 'ALL') as IndexShape['projection'],
          include: i.Projection?.NonKeyAttributes,
        }),
      ),
    }));
    shape.catch(() => shapes.delete(TableName));
    shapes.set(TableName, shape);
  }
  return shape;
}

const read = (client: DynamoDBClient, TableName: string, Key: StoredItem) =>
  unmetered(() => client.send(new GetItemCommand({ TableName, Key, ConsistentRead: true }))).then(
    (r) => r.Item as StoredItem | undefined,
  );

const keyOf = (item: StoredItem, shape: TableShape): StoredItem =>
  Object.fromEntries(shape.keys.map((k) => [k, item[k]]));

interface Write {
  table: string;
  key: StoredItem;
  check?: boolean;
}

/** The items a write request touches. */
async function writesOf(client: DynamoDBClient, command: string, input: Input): Promise<Write[] | undefined> {
  const one = async (table: string, op: Input): Promise<Write> => ({
    table,
    key: op.Key ?? keyOf(op.Item, await shapeOf(client, table)),
  });
  switch (command) {
    case 'PutItemCommand':
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return [await one(input.TableName, input)];
    case 'TransactWriteItemsCommand':
      return Promise.all(
        (input.TransactItems as Input[]).map(async (t) => {
          const op = t.Put ?? t.Update ?? t.Delete ?? t.ConditionCheck;
          return { ...(await one(op.TableName, op)), check: Boolean(t.ConditionCheck) };
        }),
      );
    case 'BatchWriteItemCommand':
      return Promise.all(
        Object.entries(input.RequestItems as Record<string, Input[]>).flatMap(([table, reqs]) =>
          reqs.map((r) => one(table, r.PutRequest ?? r.DeleteRequest)),
        ),
      );
    default:
      return undefined;
  }
}

const addWrite = (meter: DynamoMeter, units: number) => {
  meter.writeUnits = (meter.writeUnits ?? 0) + units;
};
const addRead = (meter: DynamoMeter, units: number) => {
  meter.readUnits = (meter.readUnits ?? 0) + units;
};

const CONDITION_FAILED = new Set(['ConditionalCheckFailedException', 'TransactionCanceledException']);

async function billWrites(
  call: Parameters<Biller>[0],
  writes: Write[],
  transaction: boolean,
): Promise<unknown> {
  const { client, meter } = call;
  const before = await Promise.all(writes.map((w) => read(client, w.table, w.key)));
  let result: unknown;
  try {
    result = await call.run();
  } catch (err) {
    if (CONDITION_FAILED.has((err as Error).name))
      for (const b of before) addWrite(meter, failedWriteUnits(b, { transaction }));
    throw err;
  }
  const after = await Promise.all(writes.map((w) => (w.check ? undefined : read(client, w.table, w.key))));
  for (const [i, w] of writes.entries()) {
    addWrite(
      meter,
      w.check
        ? conditionCheckUnits(before[i])
        : itemWriteUnits({ before: before[i], after: after[i] }, await shapeOf(client, w.table), {
            transaction,
          }),
    );
  }
  return result;
}

/** The names (#n) and values (:v) an expression uses, of those the request defines. */
function usedBy(expression: string | undefined, defined: Input | undefined): Input | undefined {
  if (!expression || !defined) return undefined;
  const used = Object.fromEntries(
    Object.entries(defined).filter(([k]) => new RegExp(`${k}(?![\\w])`).test(expression)),
  );
  return Object.keys(used).length ? used : undefined;
}

/** The items a Query or Scan read, as stored in the table or index: the request again, unfiltered, unprojected. */
async function itemsRead(client: DynamoDBClient, command: string, input: Input): Promise<StoredItem[]> {
  const plain: Input = {
    TableName: input.TableName,
    IndexName: input.IndexName,
    KeyConditionExpression: input.KeyConditionExpression,
    ExpressionAttributeNames: usedBy(input.KeyConditionExpression, input.ExpressionAttributeNames),
    ExpressionAttributeValues: usedBy(input.KeyConditionExpression, input.ExpressionAttributeValues),
    ScanIndexForward: input.ScanIndexForward,
    ExclusiveStartKey: input.ExclusiveStartKey,
    Limit: input.Limit,
    ConsistentRead: input.ConsistentRead,
    Segment: input.Segment,
    TotalSegments: input.TotalSegments,
  };
  const out = await unmetered(() =>
    client.send(
      command === 'QueryCommand' ? new QueryCommand(plain as never) : new ScanCommand(plain as never),
    ),
  );
  return (out.Items ?? []) as StoredItem[];
}

const biller: Biller = async (call) => {
  const { client, command, input, meter } = call;
  const writes = await writesOf(client, command, input);
  if (writes) return billWrites(call, writes, command === 'TransactWriteItemsCommand');
  const result = await call.run();
  const consistent = input.ConsistentRead === true;
  switch (command) {
    case 'GetItemCommand':
      addRead(
        meter,
        getItemUnits(await read(client, String(input.TableName), input.Key as StoredItem), { consistent }),
      );
      break;
    case 'BatchGetItemCommand':
      for (const [table, req] of Object.entries(input.RequestItems as Record<string, Input>))
        for (const key of req.Keys as StoredItem[])
          addRead(meter, getItemUnits(await read(client, table, key), { consistent: req.ConsistentRead }));
      break;
    case 'TransactGetItemsCommand':
      for (const { Get } of input.TransactItems as Input[])
        addRead(meter, getItemUnits(await read(client, Get.TableName, Get.Key), { transaction: true }));
      break;
    case 'QueryCommand':
    case 'ScanCommand':
      addRead(meter, queryUnits(await itemsRead(client, command, input), { consistent }));
      break;
  }
  return result;
};

/** Prices every metered DynamoDB request until the returned function is called. */
/** Installs the biller here and, for the local runner's functions, in their environments. */
export const startBilling = (): (() => void) => installBiller(biller, fileURLToPath(import.meta.url));
