// Part of `npm run bench -- --search`: misspelled words among thousands of their one-edit neighbours
// (search-corpus.ts, oneEditNeighbours: 20,000 neighbours of each searched word held by the notes,
// the word itself by none), 1, 5 and 16 such words searched, in the engine in this process: the
// query's plan (the neighbour lookups) and its matching, each run as a ratio to a floor measured in
// the same segment in the same run (a word every note holds, searched as written).
import { MAX_SEARCH_STEPS, NoteIndex, planQuery, StepBudget } from '../../lib/notes/search/engine.ts';
import { parseQuery } from '../../lib/notes/search/model.ts';
import { notesOfWords, oneEditNeighbours } from './search-corpus.ts';
import { median } from './stats.ts';

const SEARCHED =
  'kubernetez terraforn promethius grafanna ansibelle postgris elasticsarch kafkaaa rabbitmk redisss nginxxx jenkinz dockerrr helmchart vagrunt consull'.split(
    ' ',
  );

/** Rows of [what, detail, figure]: each query's median of `runs` against the floor's. */
export async function misspelledBench(runs = 5): Promise<string[][]> {
  const index = await NoteIndex.empty();
  let n = 0;
  for (const word of SEARCHED)
    for (const note of notesOfWords(oneEditNeighbours(word, 20_000), 1000, 'neighbours'))
      index.upsert({
        shortId: `n${n++}`,
        title: note.title,
        tags: [],
        content: note.content,
        parentFolderId: null,
        version: 1,
      });
  const segment = await NoteIndex.fromBytes(await index.toBytes());
  index.close();
  const time = (q: string) => {
    const ms: number[] = [];
    let steps = 0;
    let terms = 0;
    let status = 200;
    for (let i = 0; i < runs; i += 1) {
      const t = performance.now();
      const plan = planQuery([segment], parseQuery(q))!;
      const budget = new StepBudget();
      try {
        segment.match(plan.match, {}, 20, budget);
      } catch {
        status = 400;
      }
      ms.push(performance.now() - t);
      steps = MAX_SEARCH_STEPS - budget.left;
      terms = plan.matched.length;
    }
    return { ms: median(ms), steps, terms, status };
  };
  try {
    const floor = time('neighbours');
    const rows = [
      [
        'misspelled: floor',
        `a word all ${n} notes hold (their titles), 16 x 20,000 neighbours indexed`,
        `${floor.ms.toFixed(1)} ms`,
      ],
    ];
    for (const words of [1, 5, 16]) {
      const r = time(SEARCHED.slice(0, words).join(' '));
      rows.push([
        `misspelled: ${words} word${words > 1 ? 's' : ''}`,
        `status ${r.status}; ${r.terms} terms; ${r.steps} SQLite steps; ${r.ms.toFixed(1)} ms`,
        `${(r.ms / floor.ms).toFixed(1)}x floor`,
      ]);
    }
    return rows;
  } finally {
    segment.close();
  }
}
