// In-memory versions store for domain unit tests; the same conditions as dynamo-versions.ts
// (test/contract/revisions.ts runs both), but the note's: it does not see the note, so it keeps a
// shared version's content as given (the DynamoDB store checks the note is still at that version).
import { Conflict } from '../../../domain/errors.ts';
import { kept, MAX_NAMED_VERSIONS, type VersionRecord, type VersionStore } from '../versions.ts';

export const memoryVersionStore = (): VersionStore & { dropContent(shortId: string, id: string): void } => {
  const notes = new Map<string, Map<string, { v: VersionRecord; content?: string }>>();
  const of = (shortId: string) => {
    if (!notes.has(shortId)) notes.set(shortId, new Map());
    return notes.get(shortId)!;
  };
  const countNamed = (shortId: string) => {
    if ([...of(shortId).values()].filter((e) => e.v.nameSource === 'user').length >= MAX_NAMED_VERSIONS)
      throw new Conflict('The note has its most named versions', { reason: 'named_versions' });
  };
  const live = (now: number) => (v: VersionRecord) => v.expiresAt === null || v.expiresAt > now;
  const copy = (v: VersionRecord): VersionRecord => structuredClone(v);
  const all = (shortId: string, now: number) =>
    [...of(shortId).values()]
      .map((e) => e.v)
      .filter(live(now))
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .map(copy);
  return {
    async latest(shortId, now) {
      return all(shortId, now)[0];
    },
    async list(shortId, now) {
      return all(shortId, now);
    },
    async get(shortId, id, now) {
      const e = of(shortId).get(id);
      return e && live(now)(e.v) ? copy(e.v) : undefined;
    },
    async content(shortId, id) {
      return of(shortId).get(id)?.content;
    },
    async create(shortId, v, content) {
      if (v.nameSource === 'user') countNamed(shortId);
      if (of(shortId).has(v.id)) throw new Conflict('The version exists', { reason: 'version' });
      of(shortId).set(v.id, { v: copy(v), content: v.shared ? undefined : content });
    },
    async coalesce(shortId, previous, next) {
      const e = of(shortId).get(previous.id);
      if (e?.v.nameSource !== 'system' || e.v.updatedAt !== previous.updatedAt) return false;
      if (next.noteVersion !== undefined && (e.v.noteVersion ?? -1) > next.noteVersion) return false;
      of(shortId).set(next.id, { v: copy({ ...next, shared: true }) });
      return true;
    },
    async materialize(shortId, v, live) {
      const e = of(shortId).get(v.id);
      if (!e?.v.shared || e.v.updatedAt !== v.updatedAt) return false;
      of(shortId).set(v.id, { v: kept(e.v, live.content), content: live.content });
      return true;
    },
    async name(shortId, v, live) {
      const e = of(shortId).get(v.id);
      if (e?.v.nameSource !== 'system') return false;
      countNamed(shortId);
      const own = live ? kept(e.v, live.content) : e.v;
      e.v = {
        ...own,
        name: v.name,
        description: v.description,
        createdBy: v.createdBy,
        nameSource: 'user',
        expiresAt: null,
      };
      if (live) e.content = live.content;
      return true;
    },
    async rename(shortId, v) {
      const e = of(shortId).get(v.id);
      if (e?.v.nameSource !== 'user') throw new Conflict('changed meanwhile');
      e.v = { ...e.v, name: v.name, description: v.description };
    },
    dropContent(shortId, id) {
      const e = of(shortId).get(id);
      if (e) e.content = undefined;
    },
  };
};
