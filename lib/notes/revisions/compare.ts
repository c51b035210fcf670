// CompareVersions: a unified diff between two states of a note, in a module of its own so that only
// the compare function bundles the `diff` library's patch code (a content PATCH keeps versions too,
// through versions.ts, and never diffs).
import { createTwoFilesPatch } from 'diff';
import { Invalid } from '../../domain/errors.ts';
import type { VersionService } from './versions.ts';

/**
 * Compare's bounds (the `diff` library's own limits): at most this many lines inserted + deleted,
 * and this long (ms) diffing; past either, 422 diff_too_large, well within the function's Timeout.
 */
export const COMPARE_MAX_EDIT_LINES = 10_000;
export const COMPARE_TIMEOUT_MS = 500;

/** A unified diff from `base` to `target` (each note_content or version:{id}). */
export async function compareVersions(
  versions: Pick<VersionService, 'contentsToCompare'>,
  userId: string,
  ref: string,
  base: string,
  target: string,
): Promise<string> {
  const [from, to] = await versions.contentsToCompare(userId, ref, base, target);
  const diff = createTwoFilesPatch(base, target, from, to, undefined, undefined, {
    context: 3,
    maxEditLength: COMPARE_MAX_EDIT_LINES,
    timeout: COMPARE_TIMEOUT_MS,
  });
  if (diff === undefined)
    throw new Invalid('The two contents differ too much to compare: compare closer versions', {
      details: {
        error_code: 'diff_too_large',
        max_edit_lines: COMPARE_MAX_EDIT_LINES,
        timeout_ms: COMPARE_TIMEOUT_MS,
      },
    });
  return diff;
}
