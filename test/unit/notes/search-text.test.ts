// What search indexes of a note and how a query reads (lib/notes/search: text.ts, model.ts, engine.ts),
// without storage: markdown syntax is not words, accents fold, CJK is found inside sentences, a
// snippet marks exactly the matched words, a query is capped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadInput } from '../../../lib/domain/errors.ts';
import {
  MAX_NEIGHBOURS,
  MAX_QUERY_ALTERNATIVES,
  NoteIndex,
  planQuery,
  StepBudget,
} from '../../../lib/notes/search/engine.ts';
import {
  MAX_QUERY_TERMS,
  parseQuery,
  SNIPPET_READ,
  snippetOf,
  snippetOfMarkdown,
} from '../../../lib/notes/search/model.ts';
import { corpus, notesOfWords, oneEditNeighbours } from '../../../infra/bench/search-corpus.ts';
import { plainText, termsOf } from '../../../lib/notes/search/text.ts';

const note = (shortId: string, content: string, extra: Partial<Parameters<NoteIndex['upsert']>[0]> = {}) => ({
  shortId,
  title: extra.title ?? shortId,
  tags: extra.tags ?? [],
  content,
  parentFolderId: extra.parentFolderId ?? null,
  version: extra.version ?? 1,
});

describe('search text', () => {
  it('keeps the words of markdown, not its syntax', () => {
    const text = plainText(
      '# Title **bold**\n\nSee [the docs](https://example.com/target-word) and ![an ' +
        'image](pic.png).\n\n```python\nprint("code")\n```\n\n<span class="x">html</span>',
    );
    // Tags are syntax; the text between them is words.
    expect(text).toBe('Title bold\nSee the docs and an image.\nprint("code")\nhtml');
    const terms = termsOf(text);
    for (const syntax of ['target', 'https', 'python', 'span', 'class', 'pic'])
      expect(terms).not.toContain(syntax);
  });

  it('reads tables, task lists, footnotes, strikethrough and [TOC] as a reader does: no syntax in the text or its snippet', () => {
    const md = [
      '[TOC]',
      '',
      '| Service | Owner |',
      '|:--------|------:|',
      '| billing | alice |',
      '| search  | bob   |',
      '',
      '- [ ] write the runbook',
      '- [x] deploy ~~twice~~ once',
      '',
      'Latency went down[^1] after the change[^note].',
      '',
      '[^1]: Measured at p95.',
      '[^note]: See the dashboard.',
    ].join('\n');
    const text = plainText(md);
    expect(text).toBe(
      'Service Owner\nbilling alice\nsearch bob\nwrite the runbook\ndeploy twice once\n' +
        'Latency went down after the change.\nMeasured at p95.\nSee the dashboard.',
    );
    for (const syntax of ['|', '[ ]', '[x]', '[^', '~~', '---', 'TOC']) expect(text).not.toContain(syntax);
    expect(termsOf(text)).not.toContain('toc');
    // A snippet is that text: read from the note's markdown, around the first match.
    const s = snippetOfMarkdown(md, new Set(['runbook']));
    expect(s.text).toBe(text.slice(text.indexOf('Service')));
    expect(s.highlights.map((h) => s.text.slice(h.offset, h.offset + h.length))).toEqual(['runbook']);
  });

  it('folds accents and case; splits CJK into pairs and Thai into words', () => {
    expect(termsOf('Résumé ÄRGER naïve')).toEqual(['resume', 'arger', 'naive']);
    expect(termsOf('全文搜索')).toEqual(['全文', '文搜', '搜索']);
    expect(termsOf('が')).toEqual(['が']); // kana voicing is not an accent
    expect(termsOf('ภาษาไทย')).toEqual(['ภาษา', 'ไทย']);
    expect(termsOf(`a${'x'.repeat(40)}`)).toEqual([]); // not a word: a hash, encoded data
  });

  it('reads quoted phrases and caps a query at MAX_QUERY_TERMS terms', () => {
    expect(parseQuery('one "two three" four')).toEqual({
      terms: ['one', 'two', 'three', 'four'],
      words: ['one', 'four'],
      phrases: [['two', 'three']],
      prefix: true,
    });
    // A query ending in a phrase has no prefix; a quoted single word is a word.
    expect(parseQuery('"two three"').prefix).toBe(false);
    expect(parseQuery('"two"')).toMatchObject({ words: ['two'], phrases: [], prefix: false });
    expect(parseQuery(`${'w* '.repeat(5000)}`).terms).toHaveLength(MAX_QUERY_TERMS);
    expect(parseQuery('*** ??? ---').terms).toEqual([]);
  });

  it('marks the matched words of a snippet by offset', () => {
    const text = `${'filler '.repeat(40)}the Résumé is here, résumé again`;
    const s = snippetOf(text, new Set(['resume']));
    expect(s.highlights.map((h) => s.text.slice(h.offset, h.offset + h.length))).toEqual([
      'Résumé',
      'résumé',
    ]);
    expect(s.text.length).toBeLessThanOrEqual(200);
  });
});

describe('snippet of a note', () => {
  it('is the snippet of the whole text, however little of the markdown it reads', () => {
    const { notes, words } = corpus(60, 12_000, 7);
    let partial = 0;
    for (const [i, n] of notes.entries()) {
      // A common word (found early), a rare one (found late or not at all).
      for (const word of [words[i % 5], words[1000 + i]]) {
        const matched = new Set(termsOf(word));
        const read: number[] = [];
        const fast = snippetOfMarkdown(n.content, matched, (md) => {
          read.push(md.length);
          return plainText(md);
        });
        expect(fast).toEqual(snippetOf(plainText(n.content), matched));
        if (read[0] < n.content.length && read.length === 1) partial += 1;
      }
    }
    expect(partial).toBeGreaterThan(30); // early matches read a part of their note
  });

  it('reads on past a fence left open, and reads all of a note with reference-style links', () => {
    const fence = `${'intro words here\n\n'.repeat(100)}\`\`\`\n${'code line\n\n'.repeat(300)}\`\`\`\n\nfinal needle`;
    expect(snippetOfMarkdown(fence, new Set(['needle']))).toEqual(
      snippetOf(plainText(fence), new Set(['needle'])),
    );
    const reference = `see [the needle][n] ${'filler '.repeat(10)}\n\n${'more text\n\n'.repeat(SNIPPET_READ / 5)}[n]: https://example.com/hidden`;
    const s = snippetOfMarkdown(reference, new Set(['needle']));
    expect(s).toEqual(snippetOf(plainText(reference), new Set(['needle'])));
    expect(s.text).toContain('see the needle'); // the link's text, not its brackets
  });
});

describe('note index', () => {
  let index: NoteIndex;
  beforeAll(async () => {
    index = await NoteIndex.empty();
    index.upsert(note('a', 'kubernetes in production', { title: 'Cluster', tags: ['ops'] }));
    index.upsert(note('b', 'a cluster of notes', { title: 'Kubernetes', parentFolderId: 'f1' }));
  });
  afterAll(() => index.close());
  const found = (q: string, filter = {}, from = index) =>
    from.search(parseQuery(q), filter).candidates.map((c) => c.shortId);

  it('ranks the title above the body; matches a prefix of the last word and one edit from five letters', () => {
    expect(found('kubernetes')).toEqual(['b', 'a']);
    expect(found('kuber')).toEqual(['b', 'a']);
    expect(found('kuber production')).toEqual([]); // only the last word is a prefix
    expect(found('kubernetis')).toEqual(['b', 'a']);
    expect(found('clustr')).toEqual(['a', 'b']);
    expect(found('nite')).toEqual([]); // four letters: no typo allowed ("note" is not "nite")
  });

  it('matches a quoted phrase only as written, and counts every match', () => {
    expect(found('"in production"')).toEqual(['a']);
    expect(found('"production in"')).toEqual([]);
    expect(found('"cluster of" notes')).toEqual(['b']);
    expect(index.search(parseQuery('kubernetes'), {}, 1)).toMatchObject({
      candidates: [{ shortId: 'b' }],
      total: 2,
    });
  });

  it('filters by tag and folder; survives serialization; forgets removed notes', async () => {
    expect(found('kubernetes', { tag: 'ops' })).toEqual(['a']);
    expect(found('kubernetes', { folderId: 'f1' })).toEqual(['b']);
    const copy = await NoteIndex.fromBytes(await index.toBytes());
    try {
      expect(copy.versions()).toEqual(
        new Map([
          ['a', 1],
          ['b', 1],
        ]),
      );
      copy.remove('a');
      expect(found('kubernetes', {}, copy)).toEqual(['b']);
      expect(found('kubernetes')).toEqual(['b', 'a']); // the original is untouched
    } finally {
      copy.close();
    }
  });

  it('keeps only the last version of a note: it is found by its last words only', async () => {
    const changing = await NoteIndex.empty();
    for (let v = 1; v <= 20; v += 1)
      changing.upsert(note('c', `version${'abcdefghijklmnopqrst'[v - 1].repeat(3)}`, { version: v }));
    const after = await NoteIndex.fromBytes(await changing.toBytes());
    changing.close();
    try {
      expect(found('versionttt', {}, after)).toEqual(['c']);
      expect(found('versionaaa', {}, after)).toEqual([]);
      expect(after.versions()).toEqual(new Map([['c', 20]]));
    } finally {
      after.close();
    }
  });

  it('refuses bytes that are not a segment', async () => {
    await expect(NoteIndex.fromBytes(new TextEncoder().encode('{"index":{}}'))).rejects.toThrow();
  });
});

describe('a misspelled word among thousands of its neighbours', () => {
  // The notes hold 3,000 one-edit neighbours of each searched word (Yi letters and a-z), the words
  // themselves none (the bench's construction has 20,000: infra/bench/search.ts).
  const searched = ['kubernetez', 'terraforn', 'promethius'];
  let index: NoteIndex;
  beforeAll(async () => {
    index = await NoteIndex.empty();
    let n = 0;
    for (const word of searched)
      for (const held of notesOfWords(oneEditNeighbours(word, 3000), 300, 'neighbours'))
        index.upsert(note(`n${n++}`, held.content, { title: held.title }));
    for (let i = 0; i < 200; i += 1) index.upsert(note(`f${i}`, 'neighbours filler'));
  }, 60_000);
  afterAll(() => index.close());

  it('stands for at most MAX_NEIGHBOURS of them, the ones most notes hold', async () => {
    const plan = planQuery([index], parseQuery(`"${searched[0]}"`))!;
    expect(plan.matched).toHaveLength(1 + MAX_NEIGHBOURS);
    expect(
      plan.matched.every((t) => t === searched[0] || oneEditNeighbours(t, 1e5).includes(searched[0])),
    ).toBe(true);
    // Among neighbours few enough to count them all, the commonest: neighbour i in 10 - i notes.
    const few = await NoteIndex.empty();
    try {
      oneEditNeighbours('deploymant', 40).forEach((t, i) => {
        for (let j = 0; j < (i % 4 === 0 ? 40 - i : 1); j += 1) few.upsert(note(`d${i}-${j}`, t));
      });
      const commonest = oneEditNeighbours('deploymant', 40).filter((_, i) => i % 4 === 0);
      expect(new Set(planQuery([few], parseQuery('"deploymant"'))!.matched)).toEqual(
        new Set(['deploymant', ...commonest.slice(0, MAX_NEIGHBOURS)]),
      );
    } finally {
      few.close();
    }
  });

  it('a query of many such words is one expression of at most MAX_QUERY_ALTERNATIVES terms', () => {
    const q = Array.from({ length: 16 }, (_, i) => searched[i % searched.length]).join(' ');
    const plan = planQuery([index, index], parseQuery(q))!;
    expect(plan.matched.length).toBeLessThanOrEqual(MAX_QUERY_ALTERNATIVES);
    expect((plan.match.match(/"/g) ?? []).length / 2).toBeLessThanOrEqual(MAX_QUERY_ALTERNATIVES);
    expect(index.search(parseQuery(q)).total).toBe(0); // no note holds a neighbour of all three
  });

  it('every misspelled word of a query stands for some of its neighbours, over many segments and repeated', async () => {
    // Three notes hold a neighbour of both words, the commonest; the rest one neighbour each.
    const small = await NoteIndex.empty();
    try {
      for (const word of ['kubernetez', 'terraforn'])
        small.upsert(note(`n-${word.slice(0, 2)}`, oneEditNeighbours(word, 300).join(' ')));
      for (let i = 0; i < 3; i += 1) small.upsert(note(`both${i}`, 'kubernetes terraform'));
      const found = (segments: NoteIndex[], q: string) => {
        const plan = planQuery(segments, parseQuery(q))!;
        expect(plan.matched.length).toBeLessThanOrEqual(MAX_QUERY_ALTERNATIVES);
        return small.match(plan.match, {}, 20).total;
      };
      // A workspace's eight segments: the first word's lookups do not use up the second's.
      expect(found(Array(8).fill(small), 'kubernetez terraforn')).toBe(3);
      // One word written 16 times is one condition, not 16 sharing the room for neighbours.
      expect(found([small], Array(16).fill('kubernetez').join(' '))).toBeGreaterThan(0);
      expect(found([small], Array(8).fill('kubernetez terraforn').join(' '))).toBe(3);
    } finally {
      small.close();
    }
  });

  it("a search past its budget of SQLite's steps is interrupted: a 400 (BadInput) naming q", () => {
    const plan = planQuery([index], parseQuery('neighbours'))!;
    expect(index.match(plan.match, {}, 20, new StepBudget()).total).toBe(230);
    const over = () => index.match(plan.match, {}, 20, new StepBudget(1));
    expect(over).toThrow(BadInput);
    expect(over).toThrow(/too broad|too much/);
    // The segment answers the next search as before.
    expect(index.match(plan.match, {}, 20, new StepBudget()).total).toBe(230);
  });
});
