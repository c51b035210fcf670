import {
  MemoryIdentityTables,
  MemoryTeamStore,
  MemoryTokenStore,
  MemoryUserStore,
} from '../../lib/identity/adapters/memory-identity.ts';
import { identityContract } from './identity.ts';

identityContract('in memory', () => {
  const t = new MemoryIdentityTables();
  return { users: new MemoryUserStore(t), teams: new MemoryTeamStore(t), tokens: new MemoryTokenStore(t) };
});
