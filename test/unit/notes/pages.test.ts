// Note pages without a stack: which addresses can be pages, which notes a page shows, and what the
// allow-list keeps of hostile HTML (the browser test, test/notes/pages-browser.test.ts, loads it).
import { describe, expect, it } from 'vitest';
import { config } from '../../../lib/config.ts';
import { RENDER_LIMITS, renderMarkdown } from '../../../lib/notes/pages/markdown.ts';
import { addressOf, visible } from '../../../lib/notes/pages/model.ts';
import type { NoteRecord } from '../../../lib/notes/kernel/model.ts';

/** The rendered HTML of markdown that must render within the budget. */
const htmlOf = (markdown: string): string => {
  const rendered = renderMarkdown(markdown);
  if (!('html' in rendered)) throw new Error(`past the render limit ${rendered.tooComplex}`);
  return rendered.html;
};

describe('addresses', () => {
  it('a shortId, or @path and a permalink; anything else is no page', () => {
    expect(addressOf({ address: 'abcDEF_12-' })).toEqual({ kind: 'short', shortId: 'abcDEF_12-' });
    expect(addressOf({ address: '@alice-1', permalink: 'hello.world' })).toEqual({
      kind: 'permalink',
      ownerPath: 'alice-1',
      permalink: 'hello.world',
    });
    expect(addressOf({ address: 'v1', permalink: 'notes' })).toBeUndefined();
    expect(addressOf({ address: '@', permalink: 'x' })).toBeUndefined();
    expect(addressOf({ address: '@a', permalink: '-x' })).toBeUndefined();
    expect(addressOf({ address: 'a b' })).toBeUndefined();
  });

  it('shows a note only when guests may read it', () => {
    const note = (readPermission: NoteRecord['readPermission']) =>
      ({ note: { readPermission } as NoteRecord, content: '' }) as const;
    expect(visible(note('guest'))).toBeDefined();
    expect(visible(note('signed_in'))).toBeUndefined();
    expect(visible(note('owner'))).toBeUndefined();
    expect(visible(undefined)).toBeUndefined();
  });
});

describe('the allow-list', () => {
  it('drops javascript: and data: links, event handlers and style; shows unknown tags as text', () => {
    const html = htmlOf(
      [
        '<a href="javascript:alert(1)">a</a> <a href="data:text/html,x">b</a> <a href="JaVaScRiPt:alert(1)">c</a>',
        '',
        '<b onclick="alert(1)" style="color:red">bold</b> <script>alert(1)</script>',
        '',
        '[md](javascript:alert(1)) <a href="https://example.org/" title="t">ok</a>',
      ].join('\n'),
    );
    expect(html).not.toMatch(/javascript:alert\(1\)"|data:text|onclick|style=/i);
    expect(html).toContain('<b>bold</b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<a href="https://example.org/" title="t">ok</a>');
    expect(html).toContain('[md](javascript:alert(1))');
  });

  it('keeps images of the image host; any other image becomes a link to it', () => {
    const own = `${config.imageBaseUrl}/notes/n1/a.png`;
    const html = htmlOf(`![own](${own}) ![other](https://elsewhere.example/x.png)`);
    expect(html).toContain(`<img src="${own}" alt="own" />`);
    expect(html).toContain('<a href="https://elsewhere.example/x.png">other</a>');
  });

  it("a table cell's alignment is a class, not a style", () => {
    expect(htmlOf('| a |\n|--:|\n| 1 |')).toContain('<td class="align-right">1</td>');
  });
});

describe('heading ids and the table of contents', () => {
  it('gives repeated headings ids as markdown-it-anchor did (a, a-1, a-2), a literal "a-1" included', () => {
    const html = htmlOf('# a\n# a\n# a-1\n# a\n## B c\n## B c');
    expect([...html.matchAll(/<h\d id="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'a',
      'a-1',
      'a-1-1',
      'a-2',
      'b-c',
      'b-c-1',
    ]);
  });

  it('2,000 repeated headings get 2,000 distinct ids, in a single pass', () => {
    const html = htmlOf('# a\n'.repeat(RENDER_LIMITS.headings));
    const ids = [...html.matchAll(/<h1 id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(RENDER_LIMITS.headings);
    expect(ids.at(-1)).toBe(`a-${RENDER_LIMITS.headings - 1}`);
  });

  it('every [TOC] shows the same contents, linking each heading by its own id', () => {
    const html = htmlOf('[TOC]\n# h\n[TOC]\n# h\n[TOC]\n## x');
    const tocs = [...html.matchAll(/<div class="table-of-contents">(.*?)<\/div>/gs)].map((m) => m[1]);
    expect(tocs).toHaveLength(3);
    expect(new Set(tocs).size).toBe(1);
    expect([...tocs[0].matchAll(/href="#([^"]+)"/g)].map((m) => m[1])).toEqual(['h', 'h-1', 'x']);
  });
});

describe('the render budget', () => {
  // Each of these took seconds (or exhausted the heap) before the budget: hostile notes found from outside.
  it.each([
    ['[TOC] and a heading x 700 (7 KB)', '[TOC]\n# h\n'.repeat(700), 'htmlChars'],
    ['a repeated heading x 20,000 (80 KB)', '# a\n'.repeat(20_000), 'tokens'],
    ['2,001 headings', '# a\n'.repeat(2_001), 'headings'],
    ['35,000 task-list items', '- [ ] x\n'.repeat(35_000), 'tokens'],
    ['70,000 footnote references', `${'[^a]'.repeat(70_000)}\n\n[^a]: x\n`, 'tokens'],
    ['3,000 footnote references', `${'[^a] '.repeat(3_000)}\n\n[^a]: x\n`, 'footnoteRefs'],
    ['300 KB of "<"', '<'.repeat(300 * 1024), 'htmlChars'],
  ])('%s: too complex, named by the limit it passes', (_, markdown, limit) => {
    expect(renderMarkdown(markdown)).toEqual({ tooComplex: limit });
  });

  it('a 300 KB ```json block of "[" is shown as plain code, not highlighted', () => {
    const html = htmlOf(`\`\`\`json\n${'['.repeat(300 * 1024 - 20)}\n\`\`\``);
    expect(html).toMatch(/^<pre><code class="language-json">\[\[\[/);
    expect(html).not.toContain('hljs');
    expect(html.length).toBeLessThan(RENDER_LIMITS.htmlChars);
  });

  it('highlights code until the page has its share of highlighted HTML, then shows plain code', () => {
    const block = `\`\`\`json\n${'['.repeat(RENDER_LIMITS.highlightBlockChars - 1)}\n\`\`\`\n`;
    const html = htmlOf(block.repeat(10));
    const highlighted = html.match(/<code class="hljs/g)?.length ?? 0;
    expect(highlighted).toBeGreaterThan(0);
    expect(highlighted).toBeLessThan(10);
    expect(html.match(/<code class="language-json">/g)).toHaveLength(10 - highlighted);
  });

  it("blocks nested past markdown-it's limit (which drops the rest of the note) are too complex", () => {
    expect(renderMarkdown(`${'> '.repeat(100)}deep\n\nafter`)).toEqual({ tooComplex: 'nesting' });
    expect(renderMarkdown(`${'- '.repeat(100)}deep`)).toEqual({ tooComplex: 'nesting' });
    const within = htmlOf(`${'> '.repeat(RENDER_LIMITS.nesting - 2)}deep\n\nafter`);
    expect(within.match(/<blockquote>/g)).toHaveLength(RENDER_LIMITS.nesting - 2);
    expect(within).toContain('<p>deep</p>');
    expect(within).toContain('<p>after</p>');
  });
});

describe('HackMD page details', () => {
  it('the `###### tags:` line shows its tags as chips, not as a heading', () => {
    expect(htmlOf('# T\n###### tags: `release` `docs`\ntext')).toContain(
      '<ul class="tags"><li>release</li><li>docs</li></ul>',
    );
    expect(htmlOf('###### tags: a b')).toBe('<ul class="tags"><li>a</li><li>b</li></ul>\n');
    expect(htmlOf('###### Not tags')).toContain('<h6 id="not-tags">Not tags</h6>');
  });

  it('footnotes have one rule above them (the stylesheet draws it), not the plugin <hr> as well', () => {
    const html = htmlOf('A claim.[^1]\n\n[^1]: The source.');
    expect(html).toContain('<section class="footnotes">');
    expect(html).not.toContain('<hr');
  });

  it('task-list items get read-only boxes, their list a class; other brackets stay text', () => {
    const html = htmlOf('- [x] done\n- [ ] open\n- [y] not a box\n\n1. [ ] numbered');
    expect(html).toContain('<ul class="contains-task-list">');
    expect(html).toContain(
      '<li class="task-list-item"><input class="task-list-item-checkbox" checked disabled type="checkbox" />done</li>',
    );
    expect(html).toContain('type="checkbox" />open</li>');
    expect(html).toContain('<li>[y] not a box</li>');
    expect(html).toContain('<ol class="contains-task-list">');
  });
});
