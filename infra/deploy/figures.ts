// The stack's figures in the docs, written by the command that measures them (`npm run deploy:sync`;
// `npm run deploy:sync -- --check` and `npm run deploy:check` fail when the docs hold others): the
// number of functions, the resources after the SAM transform and how many of them each function costs,
// the packaged template's size, and each nested stack's (log groups, alarms) resources, parameters,
// outputs and size (infra/deploy/transform.py, the transform CloudFormation runs). A figure of the stack in docs/ is one of these, or it is left out.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../local/template.ts';
import { ALARMS_STACK } from './alarms.ts';
import { LOGS_STACK } from './logs.ts';

export interface NestedFigures {
  resources: number;
  parameters: number;
  outputs: number;
  packagedBytes: number;
}

export interface StackFigures {
  functions: number;
  resources: number;
  /** The parent's resources that SAM makes for the functions (function, role, permissions, event
   * source mappings: logical ids that start with a function's), per function. */
  perFunction: number;
  packagedBytes: number;
  logs: NestedFigures;
  alarms: NestedFigures;
}

/** What transform.py prints (the transformed template, its packaged size, the nested stacks'). */
export interface TransformOutput {
  transformed: { Resources: Record<string, { Type: string }> };
  packagedBytes: number;
  nested: Record<string, { path: string } & NestedFigures>;
}

/** Runs the SAM transform of template.yaml (Python with aws-sam-translator). */
export function transformTemplate(): TransformOutput {
  const out = spawnSync('python3', ['infra/deploy/transform.py', 'template.yaml'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (out.error || out.status !== 0) throw new Error(`the SAM transform failed:\n${out.stderr ?? out.error}`);
  return JSON.parse(out.stdout) as TransformOutput;
}

const nestedFigures = (t: TransformOutput, id: string): NestedFigures => {
  const n = t.nested[id];
  if (!n) throw new Error(`the transformed template has no nested stack ${id}`);
  return {
    resources: n.resources,
    parameters: n.parameters,
    outputs: n.outputs,
    packagedBytes: n.packagedBytes,
  };
};

export function figuresOf(t: TransformOutput): StackFigures {
  const entries = Object.entries(t.transformed.Resources);
  const functionIds = entries.filter(([, r]) => r.Type === 'AWS::Lambda::Function').map(([id]) => id);
  const ofFunctions = entries.filter(([id]) => functionIds.some((fn) => id.startsWith(fn))).length;
  return {
    functions: functionIds.length,
    resources: entries.length,
    perFunction: Math.round((ofFunctions / functionIds.length) * 10) / 10,
    packagedBytes: t.packagedBytes,
    logs: nestedFigures(t, LOGS_STACK),
    alarms: nestedFigures(t, ALARMS_STACK),
  };
}

/** How many more functions fit in the parent at `perFunction` resources each (rounded up). */
export const functionsThatFit = (resources: number, perFunction: number) =>
  Math.floor((500 - resources) / Math.ceil(perFunction));

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const START = '<!-- deploy:figures (written by npm run deploy:sync, infra/deploy/figures.ts) -->';
const END = '<!-- /deploy:figures -->';

/** The figures as docs/deploy.md shows them (between its markers). */
export function figuresBlock(f: StackFigures): string {
  return [
    `Measured by \`npm run deploy:sync\` on this template: **${f.functions} functions**, **${f.resources}`,
    `resources** after the transform, **${f.perFunction} per function** (function, role, a permission per route,`,
    `event source mappings), so CloudFormation's 500 leave room for about ${functionsThatFit(f.resources, f.perFunction)} more functions at`,
    `${Math.ceil(f.perFunction)} each; a **packaged template of ${kb(f.packagedBytes)}** (CloudFormation takes 51,200 bytes inline).`,
    `The nested log groups stack: **${f.logs.resources} resources** (500 allowed), **${f.logs.outputs} outputs** (200`,
    `allowed: about ${200 - f.logs.outputs} more functions), **${f.logs.parameters} parameters**, **${kb(f.logs.packagedBytes)}** (1 MB allowed).`,
    `The nested alarms stack: **${f.alarms.resources} resources** (500 allowed), **${f.alarms.parameters}`,
    `parameters** (200 allowed: about ${200 - f.alarms.parameters} more functions), **${kb(f.alarms.packagedBytes)}** (1 MB allowed).`,
  ].join('\n');
}

/** Where each doc figure is written: a file and how to put the measured value in its text. */
const DOC_FIGURES: { file: string; write: (text: string, f: StackFigures) => string }[] = [
  {
    file: 'docs/deploy.md',
    write: (text, f) => {
      const at = text.indexOf(START);
      const end = text.indexOf(END);
      if (at < 0 || end < at) throw new Error(`docs/deploy.md has no ${START} ... ${END} block`);
      return `${text.slice(0, at + START.length)}\n${figuresBlock(f)}\n${text.slice(end)}`;
    },
  },
  {
    // The sample start-up (npm start bundles every function).
    file: 'docs/local.md',
    write: (text, f) => text.replace(/bundling \d+ functions/g, `bundling ${f.functions} functions`),
  },
];

/** Each docs file whose figures differ from `f`, with its text as it should be. */
export function docsWithFigures(
  f: StackFigures,
): { file: string; path: string; text: string; stale: boolean }[] {
  return DOC_FIGURES.map(({ file, write }) => {
    const path = join(ROOT, file);
    const text = readFileSync(path, 'utf8');
    const next = write(text, f);
    return { file, path, text: next, stale: next !== text };
  });
}
