// The bench's biller against DynamoDB Local: it prices real requests by the items they touch (read
// before and after, outside the meter), where DynamoDB Local's own ConsumedCapacity counts a
// transaction at 4 units per KB instead of AWS's 2.
import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startBilling } from '../../infra/bench/biller.ts';
import { documentClient } from '../../lib/data/dynamo.ts';
import { metered } from '../../lib/data/metering.ts';

const TableName = process.env.TABLE_NAME!;
const stop = startBilling();
afterAll(stop);

describe('biller', () => {
  it('a 500 B one-item transaction bills 2 write units (DynamoDB Local reports 4)', async () => {
    const PK = `BILL#${randomUUID()}`;
    const { meter } = await metered(() =>
      documentClient().send(
        new TransactWriteCommand({
          TransactItems: [{ Put: { TableName, Item: { PK, SK: 'A', data: 'x'.repeat(480) } } }],
        }),
      ),
    );
    expect(meter.writeUnits).toBe(2);
    expect(meter.requests).toBe(1); // the biller's own reads are not the call's
  });

  it('an update that moves a GSI key bills a delete and a put of the index entry', async () => {
    const PK = `BILL#${randomUUID()}`;
    const item = { PK, SK: 'A', GSI1PK: 'P', GSI1SK: '1', data: 'x'.repeat(3000) };
    await documentClient().send(new PutCommand({ TableName, Item: item }));
    const { meter } = await metered(() =>
      documentClient().send(
        new UpdateCommand({
          TableName,
          Key: { PK, SK: 'A' },
          UpdateExpression: 'SET GSI1SK = :s',
          ExpressionAttributeValues: { ':s': '2' },
        }),
      ),
    );
    // The table's 3 units, plus the index entry deleted and put at its projected size.
    const projected = await projectedUnits();
    expect(meter.writeUnits).toBe(3 + 2 * projected);
  });

  it('an eventually consistent Query returning 8 KB bills 1 read unit', async () => {
    const PK = `BILL#${randomUUID()}`;
    // Two items of exactly 4 KB: the keys' bytes (names and values), then `data` up to 4096.
    const keyBytes = 'PK'.length + PK.length + 'SK'.length + 1 + 'data'.length;
    for (const SK of ['A', 'B'])
      await documentClient().send(
        new PutCommand({ TableName, Item: { PK, SK, data: 'x'.repeat(4096 - keyBytes) } }),
      );
    const { meter } = await metered(() =>
      documentClient().send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': PK },
        }),
      ),
    );
    expect(meter.readUnits).toBe(1);
  });
});

/** Write units of GSI1's entry of a 3 KB item: 3 when GSI1 projects ALL, 1 when it projects less. */
async function projectedUnits(): Promise<number> {
  const { DescribeTableCommand, DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { Table } = await new DynamoDBClient({}).send(new DescribeTableCommand({ TableName }));
  const gsi1 = Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === 'GSI1');
  return gsi1?.Projection?.ProjectionType === 'ALL' ? 3 : 1;
}
