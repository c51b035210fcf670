// The awareness update that removes a gone connection's cursors (docs/live.md, "Protocol"): framed
// as protocol.ts frames every message, written here without lib0 or Yjs so the $disconnect function
// bundles neither (cold start).

/** lib0's var-uint: 7 bits a byte, low first, the high bit set on all but the last. */
function varUint(out: number[], n: number): void {
  let rest = n;
  while (rest > 0x7f) {
    out.push(0x80 | (rest % 0x80));
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/**
 * An awareness message (type 1) of a `null` state for each client id at its clock: y-protocols'
 * applyAwarenessUpdate drops the state of a peer that holds a lower (or the same) clock.
 */
export function removalMessage(removed: { clientId: number; clock: number }[]): string {
  const update: number[] = [];
  varUint(update, removed.length);
  for (const { clientId, clock } of removed) {
    varUint(update, clientId);
    varUint(update, clock);
    update.push(4, ...Buffer.from('null', 'utf8')); // a var-string: its length, then its UTF-8
  }
  const message: number[] = [1];
  varUint(message, update.length);
  return Buffer.from([...message, ...update]).toString('base64');
}
