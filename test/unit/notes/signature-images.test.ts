// lib/notes/images/adapters/signature-images.ts decides which uploads are images, and of which type, as the
// file-type library (which it replaced in the bundle) does: the same answer for every accepted type,
// on real images, on the formats that share their first bytes, and on arbitrary bytes behind each
// signature.
import fc from 'fast-check';
import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, it } from 'vitest';
import { detectImage } from '../../../lib/notes/images/adapters/signature-images.ts';
import { IMAGE_TYPES } from '../../../lib/notes/notes/service.ts';
import { GIF, PNG } from '../../notes/helpers.ts';

/** What an upload is accepted as: one of the four types, or nothing (415). */
const accepted = (t: { mime: string } | undefined) => (t && IMAGE_TYPES.has(t.mime) ? t.mime : undefined);
const theirs = async (bytes: Buffer) => accepted(await fileTypeFromBuffer(bytes));
const ours = (bytes: Buffer) => accepted(detectImage(bytes));

const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, data, Buffer.alloc(4)]);
};
/** PNG with an acTL chunk before its image data: an APNG, which is refused. */
const APNG = Buffer.concat([PNG.subarray(0, 33), chunk('acTL', Buffer.alloc(8)), PNG.subarray(33)]);
/** The first bytes of a baseline JPEG (JFIF APP0) and of a lossless WebP. */
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');
const WEBP = Buffer.from('524946461a000000574542505650384c0d0000002f0000001007101111888808', 'hex');
const JPEG_LS = Buffer.from('ffd8fff7000b08000100010100110000', 'hex');

describe('image detection by signature', () => {
  it('names each accepted type, with the extension its key gets', () => {
    expect(detectImage(PNG)).toEqual({ mime: 'image/png', ext: 'png' });
    expect(detectImage(JPEG)).toEqual({ mime: 'image/jpeg', ext: 'jpg' });
    expect(detectImage(GIF)).toEqual({ mime: 'image/gif', ext: 'gif' });
    expect(detectImage(WEBP)).toEqual({ mime: 'image/webp', ext: 'webp' });
  });

  it('refuses what only looks like one: APNG, JPEG-LS, RIFF that is not WebP, text, nothing', () => {
    for (const bytes of [
      APNG,
      JPEG_LS,
      Buffer.from('RIFF\0\0\0\0WAVEfmt '),
      Buffer.from('<svg/>'),
      Buffer.alloc(0),
    ])
      expect(ours(bytes)).toBeUndefined();
  });

  it('answers as file-type does on these files', async () => {
    for (const bytes of [PNG, APNG, JPEG, JPEG_LS, GIF, WEBP]) expect(ours(bytes)).toBe(await theirs(bytes));
  });

  it('answers as file-type does on arbitrary bytes behind each signature', async () => {
    const prefixes = [
      PNG.subarray(0, 8),
      PNG.subarray(0, 33),
      JPEG.subarray(0, 3),
      Buffer.from('GIF89a'),
      Buffer.from('RIFF\0\0\0\0WEBP'),
      Buffer.from('RIFF'),
      Buffer.alloc(0),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...prefixes),
        fc.uint8Array({ maxLength: 64 }),
        async (prefix, tail) => {
          const bytes = Buffer.concat([prefix, Buffer.from(tail)]);
          expect(ours(bytes)).toBe(await theirs(bytes));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
