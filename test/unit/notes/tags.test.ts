// HackMD's `###### tags:` line (lib/notes/kernel/model.ts tagsOf).
import { describe, expect, it } from 'vitest';
import { MAX_TAGS, tagsOf } from '../../../lib/notes/kernel/model.ts';

describe('tags from content', () => {
  it('reads the backtick-quoted tags of the first tags line', () => {
    expect(tagsOf('# Title\n###### tags: `a` `b c` `a`\n\n###### tags: `later`')).toEqual(['a', 'b c']);
    expect(tagsOf('###### Tags:`x`,`y`')).toEqual(['x', 'y']);
    expect(tagsOf('###### tags:')).toEqual([]);
  });

  it('is undefined without a tags line (a heading of another level, or tags in a paragraph)', () => {
    expect(tagsOf('##### tags: `a`')).toBeUndefined();
    expect(tagsOf('text ###### tags: `a`')).toBeUndefined();
    expect(tagsOf('')).toBeUndefined();
  });

  it('keeps to the tag limits', () => {
    const many = Array.from({ length: MAX_TAGS + 5 }, (_, i) => `\`t${i}\``).join(' ');
    expect(tagsOf(`###### tags: ${many}`)).toHaveLength(MAX_TAGS);
    expect(tagsOf(`###### tags: \`${'x'.repeat(100)}\``)![0]).toHaveLength(64);
  });
});
