// Note content as the versions and comment-anchor items store it: Brotli (quality 5) of the UTF-8.
// Markdown shrinks 3-10x, so a snapshot costs a fraction of the content's write units; content that
// does not compress (300 KiB of random text) grows by a few bytes and still fits a 400 KB item.
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

export const pack = (content: string): Uint8Array => {
  const raw = Buffer.from(content, 'utf8');
  return brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
};

export const unpack = (packed: Uint8Array): string => brotliDecompressSync(packed).toString('utf8');
