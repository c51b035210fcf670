// A generated corpus of markdown notes in the languages HackMD's users write in, for the search
// benches: words drawn by a Zipf-like law from a vocabulary of English-like, accented (French,
// German-like) words, Chinese and Japanese phrases; headings, lists, links, emphasis, code fences and a
// tags line, as notes have. Deterministic (seeded), so runs compare.

/** A small seeded generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES =
  'ka,ri,to,men,sa,lo,ver,tin,ex,pro,gra,da,be,ne,mon,cor,pil,sta,tra,qui,ple,zor,han,vel'.split(',');
const ACCENTED = 'é,è,à,ü,ö,ç,ñ,â'.split(',');
const HAN = '学习全文搜索数据库服务器开发团队文档笔记会议计划项目测试部署设计用户界面系统网络安全性能分析';
const KANA = 'あいうえおかきくけこさしすせそたちつてとなにぬねのまみむめもらりるれろテキストデータベース';

export interface CorpusNote {
  title: string;
  tags: string[];
  content: string;
}

export function vocabulary(rand: () => number, size = 20_000): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const kind = rand();
    if (kind < 0.75) {
      const n = 2 + Math.floor(rand() * 3);
      let w = Array.from({ length: n }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('');
      if (rand() < 0.15)
        w = w.replace(/[aeiou](?=[^aeiou]*$)/, ACCENTED[Math.floor(rand() * ACCENTED.length)]);
      words.add(w);
    } else if (kind < 0.88) {
      const n = 2 + Math.floor(rand() * 3);
      words.add(Array.from({ length: n }, () => HAN[Math.floor(rand() * HAN.length)]).join(''));
    } else {
      const n = 3 + Math.floor(rand() * 4);
      words.add(Array.from({ length: n }, () => KANA[Math.floor(rand() * KANA.length)]).join(''));
    }
  }
  return [...words];
}

/** `count` notes of about `bytes` bytes of markdown each. */
export function corpus(count: number, bytes = 4000, seed = 42): { notes: CorpusNote[]; words: string[] } {
  const rand = random(seed);
  const words = vocabulary(rand);
  // Zipf-like: the i-th word is drawn with weight 1/(i+1).
  const pick = () =>
    words[Math.min(words.length - 1, Math.floor(Math.exp(rand() * Math.log(words.length))) - 1)];
  const sentence = (n: number) => Array.from({ length: n }, pick).join(' ');
  const notes: CorpusNote[] = [];
  for (let i = 0; i < count; i += 1) {
    const title = sentence(2 + Math.floor(rand() * 4));
    const tags = Array.from({ length: Math.floor(rand() * 3) }, pick);
    const parts = [`# ${title}`, ''];
    let size = title.length;
    while (size < bytes) {
      const r = rand();
      const block =
        r < 0.1
          ? `## ${sentence(3)}`
          : r < 0.2
            ? Array.from(
                { length: 3 },
                () => `- ${sentence(6)} [${pick()}](https://example.com/${pick()})`,
              ).join('\n')
            : r < 0.25
              ? `\`\`\`js\nconst ${pick()} = "${sentence(4)}";\n\`\`\``
              : `${sentence(12)} **${pick()}** ${sentence(10)} _${pick()}_ ${sentence(8)}.`;
      parts.push(block, '');
      size += Buffer.byteLength(block) + 2;
    }
    if (tags.length) parts.push(`###### tags: ${tags.map((t) => `\`${t}\``).join(' ')}`);
    notes.push({ title, tags, content: parts.join('\n') });
  }
  return { notes, words };
}

/** Yi syllables (U+A000–U+A48C) and a–z: letters the engine indexes as words, 1,191 of them. */
export const NEIGHBOUR_LETTERS: string[] = [
  ...Array.from({ length: 0xa48c - 0xa000 + 1 }, (_, i) => String.fromCodePoint(0xa000 + i)),
  ...'abcdefghijklmnopqrstuvwxyz',
];

/**
 * Up to `count` words one edit away from `word` (a letter of NEIGHBOUR_LETTERS replaced or inserted,
 * one deleted), in a fixed order: the construction of a hostile test ("a misspelled word expands to every
 * neighbour"), ~20,000 neighbours of each searched word held by the notes, the word itself by none.
 */
export function oneEditNeighbours(word: string, count: number): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= word.length && out.size < count; i += 1) {
    if (i < word.length) out.add(word.slice(0, i) + word.slice(i + 1));
    for (const c of NEIGHBOUR_LETTERS) {
      if (out.size >= count) break;
      out.add(word.slice(0, i) + c + word.slice(i)); // inserted
      if (i < word.length) out.add(word.slice(0, i) + c + word.slice(i + 1)); // replaced
    }
  }
  out.delete(word);
  return [...out].slice(0, count);
}

/** Notes holding `words`, `perNote` to a note (a paragraph of them each), titled `title n`. */
export function notesOfWords(words: string[], perNote: number, title: string): CorpusNote[] {
  const notes: CorpusNote[] = [];
  for (let i = 0; i < words.length; i += perNote)
    notes.push({
      title: `${title} ${notes.length}`,
      tags: [],
      content: words.slice(i, i + perNote).join(' '),
    });
  return notes;
}
