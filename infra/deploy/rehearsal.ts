// The deploy rehearsal (infra/deploy/rehearse.py) from Node: what CloudFormation receives, created
// in moto on this machine. `npm run deploy:check` runs it and test/deploy/rehearsal.test.ts holds it.
import { spawnSync } from 'node:child_process';
import { ROOT } from '../local/template.ts';

export interface Rehearsal {
  /** Every failure (empty: the stack would be created). */
  problems: string[];
  checks: {
    restApis: Record<string, { paths: number; methods: number }>;
    resourcePolicies: Record<string, { statements: number; bytes: number; bytesAtLongestStackName: number }>;
    webSocket: Record<string, string[]>;
  };
  rehearsal: {
    stacks?: Record<string, { status: string; resources: number; createComplete: number }>;
    notEmulated?: string[];
    restApis?: Record<
      string,
      { imported: string[]; deployed: boolean; stage: string; gatewayResponses: string[] }
    >;
    webSocket?: Record<string, { routes: string[]; integrations: number }>;
    limits?: {
      largestEnvironment: [string, number];
      largestRolePolicies: [string, number];
      functions: number;
      roles: number;
    };
  };
}

/** Why the rehearsal cannot run here (Python without aws-sam-translator or moto), or undefined. */
export function rehearsalUnavailable(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import samtranslator, moto, boto3'], { encoding: 'utf8' });
  if (probe.error) return 'python3 is not installed';
  if (probe.status !== 0)
    return 'python3 lacks aws-sam-translator, moto or boto3 (pip install moto[all]==5.2.1)';
  return undefined;
}

export function rehearse(template = 'template.yaml'): Rehearsal {
  const out = spawnSync('python3', ['infra/deploy/rehearse.py', template], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (out.error || out.status !== 0)
    throw new Error(`the rehearsal failed to run:\n${out.stderr ?? out.error}`);
  return JSON.parse(out.stdout) as Rehearsal;
}

export function rehearsalSummary(r: Rehearsal): string {
  const stacks = Object.entries(r.rehearsal.stacks ?? {})
    .map(([id, s]) => `${id} ${s.status} (${s.createComplete} of ${s.resources} created)`)
    .join(', ');
  const apis = Object.entries(r.rehearsal.restApis ?? {})
    .map(([id, a]) => `${id} ${a.imported.length} methods${a.deployed ? ', deployed' : ''}`)
    .join('; ');
  const policies = Object.values(r.checks.resourcePolicies);
  const largest = Math.max(...policies.map((p) => p.bytesAtLongestStackName));
  return [
    `stacks: ${stacks}`,
    `REST APIs: ${apis}`,
    `not emulated by moto (cfn-lint and the checks cover them): ${(r.rehearsal.notEmulated ?? []).join(', ')}`,
    `largest environment ${r.rehearsal.limits?.largestEnvironment.join(' ')} bytes (4,096 allowed); ` +
      `largest inline role policies ${r.rehearsal.limits?.largestRolePolicies.join(' ')} characters (10,240); ` +
      `largest resource policy ${largest} bytes at a 128-character stack name (20,480)`,
  ].join('\n');
}
