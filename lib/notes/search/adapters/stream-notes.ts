// Which notes of which workspaces a batch of the table's stream records changed: note META items
// inserted, modified (a new version, trashed or restored) or removed; both images are read, so a
// note's old workspace learns of it too. A META rewrite that changed neither is left out.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { notesKeys } from '../../../data/keys.ts';
import { toRecord } from '../../kernel/adapters/note-items.ts';
import { workspaceOf, type Workspace } from '../model.ts';

const META_SK = notesKeys.noteMeta('x').SK;
type Image = Record<string, AttributeValue>;
const read = (image: unknown) => (image ? unmarshall(image as Image) : undefined);
const stateOf = (item: Record<string, unknown> | undefined) =>
  item && `${toRecord(item).version}/${item.deletedAt ?? ''}`;

export function changedNotes(records: DynamoDBRecord[]): Map<Workspace, Set<string>> {
  const out = new Map<Workspace, Set<string>>();
  for (const r of records) {
    if (r.dynamodb?.Keys?.SK?.S !== META_SK) continue;
    const before = read(r.dynamodb.OldImage);
    const after = read(r.dynamodb.NewImage);
    if (before && after && stateOf(before) === stateOf(after)) continue;
    for (const item of [before, after]) {
      if (!item) continue;
      const note = toRecord(item);
      const workspace = workspaceOf(note);
      if (!out.has(workspace)) out.set(workspace, new Set());
      out.get(workspace)!.add(note.shortId);
    }
  }
  return out;
}
