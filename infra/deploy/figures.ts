// The stack's figures in the docs, written by the command that measures them (`npm run deploy:sync`;
// `npm run deploy:sync -- --check` and `npm run deploy:check` fail when the docs hold others): the
// number of functions, the resources after the SAM transform, the packaged template's size and the
// nested alarms stack's resources, parameters and size (infra/deploy/transform.py, the transform
// CloudFormation runs). A figure of the stack in docs/ is one of these, or it is left out.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../local/template.ts';

export interface StackFigures {
  functions: number;
  resources: number;
  packagedBytes: number;
  nested: { resources: number; parameters: number; packagedBytes: number };
}

/** What transform.py prints (the transformed template, its packaged size, the nested stacks'). */
export interface TransformOutput {
  transformed: { Resources: Record<string, { Type: string }> };
  packagedBytes: number;
  nested: Record<string, { path: string; resources: number; parameters: number; packagedBytes: number }>;
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

export function figuresOf(t: TransformOutput): StackFigures {
  const resources = Object.values(t.transformed.Resources);
  const [nested] = Object.values(t.nested);
  return {
    functions: resources.filter((r) => r.Type === 'AWS::Lambda::Function').length,
    resources: resources.length,
    packagedBytes: t.packagedBytes,
    nested: {
      resources: nested.resources,
      parameters: nested.parameters,
      packagedBytes: nested.packagedBytes,
    },
  };
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const START = '<!-- deploy:figures (written by npm run deploy:sync, infra/deploy/figures.ts) -->';
const END = '<!-- /deploy:figures -->';

/** The figures as docs/deploy.md shows them (between its markers). */
export function figuresBlock(f: StackFigures): string {
  const perFunction = 4; // function, role, a permission per route, its log group (about)
  return [
    `Measured by \`npm run deploy:sync\` on this template: **${f.functions} functions**, **${f.resources}`,
    `resources** after the transform (CloudFormation allows 500: about ${Math.floor((500 - f.resources) / perFunction)} more`,
    `functions fit), a **packaged template of ${kb(f.packagedBytes)}** (CloudFormation takes 51,200 bytes`,
    `inline). The nested alarms stack: **${f.nested.resources} resources** (500 allowed), **${f.nested.parameters}`,
    `parameters** (200 allowed: about ${200 - f.nested.parameters} more functions), **${kb(f.nested.packagedBytes)}** (1 MB allowed).`,
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
