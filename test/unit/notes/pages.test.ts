// Note pages without a stack: which addresses can be pages, which notes a page shows, and what the
// allow-list keeps of hostile HTML (the browser test, test/notes/pages-browser.test.ts, loads it).
import { describe, expect, it } from 'vitest';
import { config } from '../../../lib/config.ts';
import { renderMarkdown } from '../../../lib/notes/pages/markdown.ts';
import { addressOf, visible } from '../../../lib/notes/pages/model.ts';
import type { NoteRecord } from '../../../lib/notes/kernel/model.ts';

describe('addresses', () => {
  it('a shortId, or @path and a permalink; anything else is no page', () => {
    expect(addressOf({ shortId: 'abcDEF_12-' })).toEqual({ kind: 'short', shortId: 'abcDEF_12-' });
    expect(addressOf({ owner: '@alice-1', permalink: 'hello.world' })).toEqual({
      kind: 'permalink',
      ownerPath: 'alice-1',
      permalink: 'hello.world',
    });
    expect(addressOf({ owner: 'v1', permalink: 'notes' })).toBeUndefined();
    expect(addressOf({ owner: '@', permalink: 'x' })).toBeUndefined();
    expect(addressOf({ owner: '@a', permalink: '-x' })).toBeUndefined();
    expect(addressOf({ shortId: 'a b' })).toBeUndefined();
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
    const html = renderMarkdown(
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
    const html = renderMarkdown(`![own](${own}) ![other](https://elsewhere.example/x.png)`);
    expect(html).toContain(`<img src="${own}" alt="own" />`);
    expect(html).toContain('<a href="https://elsewhere.example/x.png">other</a>');
  });

  it("a table cell's alignment is a class, not a style", () => {
    expect(renderMarkdown('| a |\n|--:|\n| 1 |')).toContain('<td class="align-right">1</td>');
  });
});
