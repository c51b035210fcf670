// `note.updated` names exactly the fields one PATCH changed, end to end: the PATCH over HTTP, the
// note's META item through DynamoDB Local's stream (the runner's event source mapping), the event
// router, the SQS stand-in and the delivery function to a receiver on 127.0.0.1. Every combination
// of test/support/note-changes.ts, by the note's owner (its last editor) and by another user.
import { afterAll, describe, expect, it } from 'vitest';
import { newUser } from '../support/identity.ts';
import { CHANGE_CASES, START } from '../support/note-changes.ts';
import { type Receiver, startReceiver } from '../support/receivers.ts';
import { call, createNote } from './helpers.ts';

let rx: Receiver | undefined;
afterAll(async () => {
  await rx?.close();
});

describe('note.updated through the stream pipeline', { timeout: 120_000 }, () => {
  it('changes lists exactly what changed, whoever changed it', async () => {
    const [owner, other] = [await newUser('Changes Owner'), await newUser('Changes Other')];
    rx = await startReceiver();
    const hook = await call('POST', '/v1/webhooks', {
      token: owner.token,
      body: { url: rx.url, scope: { type: 'workspace' } },
    });
    expect(hook.status, hook.text).toBe(201);
    const noteOf = new Map<string, (typeof CHANGE_CASES)[number]>();
    for (const c of CHANGE_CASES) {
      const note = await createNote(owner.token, START);
      noteOf.set(note.id, c);
      const by = c.by === 'owner' ? owner : other;
      const res = await call('PATCH', `/v1/notes/${note.id}`, { token: by.token, body: c.patch });
      expect(res.status, `${c.name}: ${res.text}`).toBe(200);
    }
    // At least once: a retried attempt may arrive twice, with the same webhook-id.
    const updates = new Map<string, Record<string, any>>();
    const deadline = Date.now() + 60_000;
    while (updates.size < CHANGE_CASES.length && Date.now() < deadline) {
      await rx.waitFor(rx.received.length + 1, 5_000).catch(() => undefined);
      for (const r of rx.received) {
        const event = JSON.parse(r.body);
        if (event.type === 'note.updated') updates.set(event.id, event);
      }
    }
    const got = [...updates.values()].map((e) => {
      const c = noteOf.get(e.data.note.id);
      return [c?.name, c?.by, e.data.changes];
    });
    const order = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(order(got)).toEqual(order(CHANGE_CASES.map((c) => [c.name, c.by, c.changes])));
  });
});
