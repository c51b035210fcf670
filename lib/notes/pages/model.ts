// Note pages: the read-only HTML page at each link the Notes API hands out (publishLink). What a
// page may show, and where it is: the rules, free of HTTP and storage.
import type { NoteRecord, NoteWithContent } from '../kernel/model.ts';

/** Where a page is: /<shortId>, or /@<userPath|teamPath>/<permalink>. */
export type PageAddress =
  | { kind: 'short'; shortId: string }
  | { kind: 'permalink'; ownerPath: string; permalink: string };

const SHORT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PATH = /^@([A-Za-z0-9_.-]{1,128})$/;
const PERMALINK = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/**
 * The address of a page's path parameters (`/{address}`: a shortId; `/{address}/{permalink}`: the
 * address is @ and the owner's path; API Gateway allows one variable name at a level, so the first
 * segment has one name in both routes); undefined when it cannot be one (a 404 like any other).
 */
export function addressOf(params: Record<string, string | undefined>): PageAddress | undefined {
  const { address, permalink } = params;
  if (address === undefined) return undefined;
  if (permalink === undefined)
    return SHORT_ID.test(address) ? { kind: 'short', shortId: address } : undefined;
  const ownerPath = PATH.exec(address)?.[1];
  if (!ownerPath || !PERMALINK.test(permalink)) return undefined;
  return { kind: 'permalink', ownerPath, permalink };
}

/**
 * A page shows a note only when an anonymous reader may read it: readPermission `guest`. Notes
 * readable by the owner or by signed-in users only, trashed or deleted notes, and unknown addresses
 * all get the same 404, so a page never tells whether a note exists.
 */
export const isPublic = (note: Pick<NoteRecord, 'readPermission'>): boolean =>
  note.readPermission === 'guest';

/** What a page reads first of a note: whether guests may read it, and its version (the page's ETag). */
export type PageMeta = Pick<NoteRecord, 'shortId' | 'version' | 'readPermission'>;

/** A note whose page may be shown: its metadata, and its content when the page is rendered. */
export interface PublicNote {
  note: PageMeta;
  /** The note with its content, read now; undefined if it is no longer public (or gone). */
  withContent(): Promise<NoteWithContent | undefined>;
}

/** The note at an address, if its page may be shown. */
export const visible = (found: NoteWithContent | undefined): NoteWithContent | undefined =>
  found && isPublic(found.note) ? found : undefined;
