// Layout change: an API token item (TOKEN#<hash> / TOKEN) carries no index keys. Every Notes call
// counts itself on it (the rate limit's UpdateItem); with GSI1 keys each count also rewrote the
// token's GSI1 entry, billing 2 write units instead of 1. Nothing reads tokens through GSI1.
import type { MigrationItem, MigrationStep, MigrationWrite } from '../step.ts';

export const identityTokens: MigrationStep = {
  name: 'identity-tokens',
  describe: 'API tokens leave GSI1 (their rate-limit count no longer writes an index entry)',
  migrate(item: MigrationItem): MigrationWrite[] {
    if (item.type !== 'token' || (item.GSI1PK === undefined && item.GSI1SK === undefined)) return [];
    return [{ update: { key: { PK: String(item.PK), SK: String(item.SK) }, remove: ['GSI1PK', 'GSI1SK'] } }];
  },
};
