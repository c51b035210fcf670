// Lambda's event filtering (FilterCriteria of an event source mapping), for the patterns the
// template uses and their usual neighbours: a pattern is an object whose every key must match; a
// leaf is a list of alternatives: a value (equal), {"exists": bool}, {"prefix": s},
// {"anything-but": [values]}. A list in the event matches when one of its elements does. A record
// matches the criteria when it matches any of the filters (no filters: every record).
type Pattern = Record<string, unknown>;

function leafMatches(alternatives: unknown[], value: unknown): boolean {
  const values = Array.isArray(value) ? value : [value];
  return alternatives.some((alt) => {
    if (alt !== null && typeof alt === 'object') {
      const rule = alt as Record<string, unknown>;
      if ('exists' in rule) return rule.exists ? value !== undefined : value === undefined;
      if ('prefix' in rule)
        return values.some((v) => typeof v === 'string' && v.startsWith(String(rule.prefix)));
      if ('anything-but' in rule) {
        const not = [rule['anything-but']].flat();
        return value !== undefined && values.every((v) => !not.includes(v));
      }
      return false;
    }
    return values.some((v) => v === alt);
  });
}

export function matchesPattern(pattern: Pattern, event: unknown): boolean {
  return Object.entries(pattern).every(([key, sub]) => {
    const value =
      event !== null && typeof event === 'object' ? (event as Record<string, unknown>)[key] : undefined;
    if (Array.isArray(sub)) return leafMatches(sub, value);
    if (sub !== null && typeof sub === 'object') return matchesPattern(sub as Pattern, value ?? {});
    return false;
  });
}

/** Whether a record passes an event source's FilterCriteria (its patterns as JSON strings). */
export const passesFilters = (patterns: string[], record: unknown): boolean =>
  patterns.length === 0 || patterns.some((p) => matchesPattern(JSON.parse(p) as Pattern, record));
