// docs/bank.md's "Abuse limits" section states the figures of lib/bank/limits.ts: a merge that drops
// the section, or a change of a constant that forgets the doc, fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';
import { type LimitName, MFA_LIMITS } from '../../lib/bank/limits.ts';

const ROWS: Record<LimitName, string> = {
  starts: 'verification starts',
  codeFailures: 'failed codes',
  tokenFailures: 'failed mfa_token checks',
  activations: 'failed activations',
  enrolmentSends: 'code-sending enrolments, while the user has no active factor',
  enrolmentSendsWithFactor: 'code-sending enrolments, once the user has an active factor',
  destinationSends: 'codes sent to one destination',
  stackSends: 'codes sent by the stack',
  sourceRefusals: 'refused requests of the routes without an API token',
};
const SUBJECT: Record<LimitName, string> = {
  starts: 'factor',
  codeFailures: 'factor',
  tokenFailures: 'user',
  activations: 'factor',
  enrolmentSends: 'user and channel',
  enrolmentSendsWithFactor: 'user and channel',
  destinationSends: 'destination and channel',
  stackSends: 'channel',
  sourceRefusals: 'source address',
};

/** "10 minutes" / "1 hour" / "2 hours" in seconds. */
const seconds = (text: string): number => {
  const m = /^(\d+) (minute|hour)s?$/.exec(text.trim());
  if (!m) throw new Error(`not a window: ${text}`);
  return Number(m[1]) * (m[2] === 'hour' ? 3600 : 60);
};

function section(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'bank.md'), 'utf8');
  const start = doc.indexOf('\n## Abuse limits\n');
  expect(start, 'docs/bank.md has an "## Abuse limits" section').toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

describe('docs/bank.md "Abuse limits"', () => {
  it('states every limit of lib/bank/limits.ts with its figures', () => {
    const rows = section()
      .split('\n')
      .filter((l) => l.startsWith('|') && !l.startsWith('|---'))
      .slice(1)
      .map((l) =>
        l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    for (const name of Object.keys(MFA_LIMITS) as LimitName[]) {
      const row = rows.find((r) => r[0].startsWith(ROWS[name]));
      expect(row, `a row for ${ROWS[name]}`).toBeDefined();
      const [, subject, max, window] = row!;
      // A configurable figure reads "1000 (`PARAMETER`)": the default is the constant.
      expect({ subject, max: Number.parseInt(max, 10), windowSeconds: seconds(window) }, ROWS[name]).toEqual({
        subject: SUBJECT[name],
        max: MFA_LIMITS[name].max,
        windowSeconds: MFA_LIMITS[name].windowSeconds,
      });
    }
    expect(rows).toHaveLength(Object.keys(MFA_LIMITS).length);
  });

  it('says what a caller past a limit gets', () => {
    expect(section()).toMatch(/\*\*429\*\* \(code 42900\) and `Retry-After`/);
  });
});
