// WebhookService and the workspace's webhook marks (docs/architecture.md, "The hooked marker"): a
// first webhook marks the writers and stamps the notes before it commits, and marks again after;
// later creates touch no mark; the last one's delete unmarks. In memory: the memory webhook store,
// and marks that record what they were asked and how many webhooks the workspace had then.
import { describe, expect, it } from 'vitest';
import type { NoteOwnerKey } from '../../../lib/data/keys.ts';
import { FixedClock } from '../../../lib/domain/clock.ts';
import { systemIds } from '../../../lib/domain/ids.ts';
import { memoryWebhooks } from '../../../lib/notes/webhooks/adapters/memory-webhooks.ts';
import { type WebhookMarks, WebhookService } from '../../../lib/notes/webhooks/webhooks.ts';

function setup() {
  const store = memoryWebhooks();
  const calls: string[] = [];
  const hooksNow = async (owner: NoteOwnerKey) => (await store.list(owner)).length;
  const marks: WebhookMarks = {
    count: async (owner) => hooksNow(owner),
    writers: async (owner) => ('userId' in owner ? [owner.userId] : ['owner', 'member']),
    markWriters: async (owner, writers) => {
      calls.push(`mark ${writers.join(',')} with ${await hooksNow(owner)} webhooks`);
    },
    stampNotes: async (owner) => {
      calls.push(`stamp with ${await hooksNow(owner)} webhooks`);
      return 0;
    },
    unmarkWriters: async (owner) => {
      calls.push(`unmark with ${await hooksNow(owner)} webhooks`);
    },
  };
  const service = new WebhookService({
    store,
    marks,
    directory: {
      getTeam: async (path) =>
        path === 't'
          ? {
              id: 't',
              ownerId: 'owner',
              path: 't',
              name: 'T',
              logo: '',
              description: null,
              visibility: 'private' as const,
              upgraded: false,
              createdAt: 0,
            }
          : undefined,
      isMember: async () => true,
    },
    folderExists: async () => true,
    seal: async (s) => `sealed:${s}`,
    clock: new FixedClock(1000),
    ids: systemIds,
    settings: { maxPerWorkspace: () => 10, allowHttp: () => true },
  });
  return { service, calls };
}

const body = { url: 'http://127.0.0.1/h', scope: { type: 'workspace' as const } };

describe('webhook marks of a workspace', () => {
  it('the first webhook marks and stamps before it commits, then marks again; later ones touch no mark', async () => {
    const { service, calls } = setup();
    const me = { userId: 'u1' };
    const { hook } = await service.create(me, body);
    expect(calls).toEqual(['mark u1 with 0 webhooks', 'stamp with 0 webhooks', 'mark u1 with 1 webhooks']);
    const second = await service.create(me, body);
    expect(calls).toHaveLength(3);
    await service.delete(me, second.hook.id);
    expect(calls).toHaveLength(3); // not the last
    await service.delete(me, hook.id);
    expect(calls.at(-1)).toBe('unmark with 0 webhooks');
  });

  it("a team's first webhook marks every member", async () => {
    const { service, calls } = setup();
    const ws = { userId: 'owner', teamPath: 't' };
    const { hook } = await service.create(ws, body);
    expect(calls).toEqual([
      'mark owner,member with 0 webhooks',
      'stamp with 0 webhooks',
      'mark owner,member with 1 webhooks',
    ]);
    await service.delete(ws, hook.id);
    expect(calls.at(-1)).toBe('unmark with 0 webhooks');
  });
});
