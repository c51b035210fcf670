// Builds the Notes adapters and hands them to the domain, lazily: nothing is created before first
// use, one getter per service so a function bundles only what it calls.
import { config } from '../config.ts';
import { identity } from '../identity/service.ts';
import { DynamoFolderStore } from './adapters/dynamo-folders.ts';
import { FolderService } from './folders.ts';

let folderService: FolderService | undefined;
export const folders = (): FolderService => (folderService ??= new FolderService(new DynamoFolderStore(() => config.tableName), identity));
