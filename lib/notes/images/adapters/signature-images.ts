// Image detection from the bytes, by the signatures the four accepted formats' specifications fix:
// PNG (and APNG, which is refused), JPEG, GIF and WebP. Only UploadNoteImage bundles it. It replaced
// the file-type library, whose 60 KiB for hundreds of formats put that function's bundle over 1.3×
// its floor (docs/benchmarks.md, "Cold start"); a test checks it answers as file-type does for these formats.
import type { ImageTypes } from '../../kernel/ports.ts';

type Detected = { mime: string; ext: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ascii = (bytes: Buffer, offset: number, text: string) =>
  bytes.length >= offset + text.length && bytes.toString('latin1', offset, offset + text.length) === text;

const PNG: Detected = { mime: 'image/png', ext: 'png' };
const APNG: Detected = { mime: 'image/apng', ext: 'apng' };

/**
 * PNG chunks are length (4), type (4), data, CRC (4). The first must be a 13-byte IHDR (Apple's CgBI
 * may precede it); an acTL chunk before the first IDAT makes the file an APNG.
 */
function png(bytes: Buffer): Detected | undefined {
  let header = false;
  let at = 8;
  do {
    if (at + 8 > bytes.length) return undefined; // no room for a chunk header
    const length = bytes.readInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (length < 0 || (type === 'IHDR' && length !== 13)) return undefined;
    if (type === 'IDAT') return PNG;
    if (type === 'acTL') return APNG;
    header ||= type === 'IHDR';
    if (!header && type !== 'CgBI') return undefined;
    at += 12 + length;
  } while (at + 8 < bytes.length);
  return PNG;
}

export function detectImage(bytes: Buffer): Detected | undefined {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return png(bytes);
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    // FF D8 FF F7 starts a JPEG-LS file (ISO/IEC 14495), which browsers do not show.
    return bytes[3] === 0xf7 ? { mime: 'image/jls', ext: 'jls' } : { mime: 'image/jpeg', ext: 'jpg' };
  if (ascii(bytes, 0, 'GIF')) return { mime: 'image/gif', ext: 'gif' };
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return { mime: 'image/webp', ext: 'webp' };
  return undefined;
}

export const signatureImages: ImageTypes = { detect: async (bytes) => detectImage(bytes) };
