// Polyglots: files that are a valid image and also something a browser would run (HTML, SVG,
// script). Images are served with their detected type, nosniff and a CSP of default-src 'none', so
// a polyglot is inert when served; refusing the ones we can recognise is defence in depth.
// Refused: any image containing (ASCII, any case) markup or script openers that do not occur by
// chance in compressed image data (5+ bytes: at most ~1e-4 false positives per 4 MiB image), and
// GIFs whose logical screen width bytes read "/*" (10,799 px: the classic GIF/JavaScript polyglot).
const MARKUP = /<(script|html|body|iframe|svg[\s/>]|object|embed|!doctype|\?php)|javascript:/i;

export function isPolyglot(bytes: Buffer, mime: string): boolean {
  if (mime === 'image/gif' && bytes[6] === 0x2f && bytes[7] === 0x2a) return true;
  return MARKUP.test(bytes.toString('latin1'));
}
