// Excerpt of a Markdown body: the plain text of its first paragraph (headings, code blocks,
// images, tables and rules skipped), at most 300 characters, cut at a word boundary with '…'.
export const EXCERPT_MAX = 300;

const plain = (block: string): string =>
  block
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '') // images
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links -> their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/^\s{0,3}(?:>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '') // quote and list markers
    .replace(/(\*\*|__|\*|_|~~|`)/g, '') // emphasis, strike, code spans
    .replace(/\s+/g, ' ')
    .trim();

const isProse = (block: string): boolean => !/^\s{0,3}(#{1,6}\s|```|~~~|\||(?:[-*_]\s*){3,}$)/.test(block);

export function deriveExcerpt(body: string): string {
  const first =
    body
      .split(/\n\s*\n/)
      .filter(isProse)
      .map(plain)
      .find((text) => text.length > 0) ?? '';
  if (first.length <= EXCERPT_MAX) return first;
  const cut = first.slice(0, EXCERPT_MAX); // room for the ellipsis is made below
  const boundary = cut.lastIndexOf(' ', EXCERPT_MAX - 1);
  return `${(boundary > 0 ? cut.slice(0, boundary) : cut.slice(0, EXCERPT_MAX - 1)).trimEnd()}…`;
}
