// Builds the Notes adapters and hands them to the domain, lazily: nothing is created before first
// use, one getter per service so a function bundles only what it calls.
import { config } from '../config.ts';
import { identity } from '../identity/service.ts';
import { DynamoFolderStore } from './adapters/dynamo-folders.ts';
import { DynamoTrashStore } from './adapters/dynamo-trash.ts';
import { FolderService } from './folders.ts';
import { S3ImageStore } from './s3-images.ts';
import { TrashService } from './trash.ts';

let folderService: FolderService | undefined;
export const folders = (): FolderService => (folderService ??= new FolderService(new DynamoFolderStore(() => config.tableName), identity));

let trashService: TrashService | undefined;
export const trash = (): TrashService => (trashService ??= new TrashService(
  new DynamoTrashStore(() => config.tableName), new S3ImageStore(() => config.bucketName), identity, () => config.trashRetentionDays,
));
export { expiredNotesOf } from './adapters/dynamo-trash.ts';
