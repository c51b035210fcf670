// The lines of each source that put code in a bundle, from the bundle's source map (base64 VLQ
// mappings): esbuild drops code no entry point reaches, and its map names only the lines it kept.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The values of one source-map segment (base64 VLQ). */
function vlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** For each source index of a source map, the (0-based) lines of it that put code in the bundle. */
export function mappedLines(mappings: string): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  let source = 0;
  let line = 0;
  for (const generated of mappings.split(';')) {
    for (const segment of generated.split(',')) {
      if (!segment) continue;
      const v = vlq(segment);
      if (v.length < 4) continue;
      source += v[1];
      line += v[2];
      if (!out.has(source)) out.set(source, new Set());
      out.get(source)!.add(line);
    }
  }
  return out;
}
