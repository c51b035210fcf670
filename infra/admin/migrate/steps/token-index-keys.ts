// The first layout put every API token in GSI1 (TOKENS#<userId>), which nothing queries; with the
// rate-limit counter on the same item, every counted call also rewrote the index. Tokens sit in no
// index now (lib/data/keys.ts): the step removes those keys.
import { identityKeys } from '../../../../lib/data/keys.ts';
import type { MigrationStep } from '../step.ts';

export const tokenIndexKeys: MigrationStep = {
  name: 'token-index-keys',
  describe: 'API tokens leave the index (GSI1 keys TOKENS#<userId> removed)',
  migrate(item) {
    const isToken = item.type === 'token' && item.SK === identityKeys.token('').SK;
    if (!isToken || !String(item.GSI1PK ?? '').startsWith(identityKeys.legacyTokensPrefix)) return [];
    return [{ update: { key: { PK: String(item.PK), SK: String(item.SK) }, remove: ['GSI1PK', 'GSI1SK'] } }];
  },
};
