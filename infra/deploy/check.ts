// npm run deploy:check — what to run before `sam deploy`:
//   1. cfn-lint template.yaml logs.yaml alarms.yaml (informational findings included): must report nothing;
//   2. the SAM transform (aws-sam-translator), with the resource count and the packaged size of the
//      stack and of its nested stacks (FunctionLogs, logs.yaml; FunctionAlarms, alarms.yaml), which docs/deploy.md must
//      show (infra/deploy/figures.ts, written by npm run deploy:sync);
//   3. the deploy rehearsal (infra/deploy/rehearse.py, moto): the transformed stack created, nested
//      stacks included, each REST API imported, deployed and staged, and the limits AWS enforces
//      at create time; it must report no problem;
//   4. every function built exactly as `sam build` builds it (one esbuild run per function, SAM's flags);
//   5. the generated parts (template.yaml's routed functions, build properties, 405 fallbacks,
//      policies and logging; logs.yaml; alarms.yaml) match the code;
//   6. every bundle loaded in a fresh Node process (this Node: 24, the functions' runtime) as the
//      runtime loads it (a .js handler is required, an .mjs imported), its handler export called once
//      with an API Gateway event against a stub AWS endpoint on loopback (infra/bench/coldstart.ts):
//      it must return a proxy response below 500.
// Exits 1 at the first failing step.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstCallEvent, lambdaEnv, sample, startStubEndpoint } from '../bench/coldstart.ts';
import { literalFunctionEnv } from '../local/function-env.ts';
import { loadTemplate, ROOT, TEMPLATE_PATH } from '../local/template.ts';
import { ALARMS_FILE, ALARMS_PATH, alarmsTemplate } from './alarms.ts';
import { buildFunctions } from './build.ts';
import { LOGS_FILE, LOGS_PATH, logsTemplateOf } from './logs.ts';
import { docsWithFigures, figuresOf, type TransformOutput, transformTemplate } from './figures.ts';
import { rehearsalSummary, rehearse } from './rehearsal.ts';
import { syncBuildProperties, syncFallbacks, syncRoutes, syncTemplate } from './sync.ts';

const fail = (message: string): never => {
  console.error(`deploy:check: ${message}`);
  process.exit(1);
};
const step = (name: string) => console.log(`\n== ${name}`);

step(`cfn-lint template.yaml ${LOGS_FILE} ${ALARMS_FILE} --include-checks I`);
const lint = spawnSync(
  'python3',
  [
    '-c',
    'import sys; from cfnlint.runner import main; sys.exit(main())',
    '--include-checks',
    'I',
    '--',
    'template.yaml',
    LOGS_FILE,
    ALARMS_FILE,
  ],
  { cwd: ROOT, encoding: 'utf8' },
);
if (lint.error || /No module named/.test(lint.stderr))
  fail('cfn-lint is not installed for python3 (pip install cfn-lint)');
if (lint.status !== 0) fail(`cfn-lint reported:\n${lint.stdout}${lint.stderr}`);
console.log('no findings');

step('SAM transform (aws-sam-translator)');
let output: TransformOutput;
try {
  output = transformTemplate();
} catch (err) {
  output = fail((err as Error).message);
}
const { transformed, packagedBytes, nested } = output;
const count = Object.keys(transformed.Resources).length;
console.log(
  `${count} resources (CloudFormation allows 500); packaged template ${packagedBytes} bytes` +
    `${packagedBytes > 51_200 ? ' (over 51,200: sam deploy uploads it to the resolve_s3 bucket)' : ''}`,
);
for (const [id, stack] of Object.entries(nested)) {
  console.log(
    `nested stack ${id} (${stack.path}): ${stack.resources} resources (500 allowed), ` +
      `${stack.parameters} parameters (200 allowed), ${stack.outputs} outputs (200 allowed), ${stack.packagedBytes} bytes`,
  );
  if (stack.resources > 500 || stack.parameters > 200 || stack.outputs > 200 || stack.packagedBytes > 1 << 20)
    fail(`${id} is over a CloudFormation limit`);
}
if (count > 500) fail("the stack is over CloudFormation's 500 resources");
const staleDocs = docsWithFigures(figuresOf(output)).filter((d) => d.stale);
if (staleDocs.length)
  fail(
    `the stack figures of ${staleDocs.map((d) => d.file).join(', ')} are not these: run npm run deploy:sync`,
  );
console.log('the docs show these figures');

step('the deploy rehearsal (infra/deploy/rehearse.py: moto, what CloudFormation receives)');
const rehearsal = rehearse();
if (rehearsal.problems.length) fail(`the rehearsal found:\n${rehearsal.problems.join('\n')}`);
console.log(rehearsalSummary(rehearsal));

step('routed functions and build properties of template.yaml (npm run deploy:sync)');
if (syncRoutes(readFileSync(TEMPLATE_PATH, 'utf8')) !== readFileSync(TEMPLATE_PATH, 'utf8'))
  fail(
    "the routed functions' blocks are not their route tables' (functions/<api>/routes.ts): run npm run deploy:sync",
  );
if (syncBuildProperties(readFileSync(TEMPLATE_PATH, 'utf8')) !== readFileSync(TEMPLATE_PATH, 'utf8'))
  fail('BuildProperties are not the ones of infra/deploy/build.ts: run npm run deploy:sync');
if (syncFallbacks(readFileSync(TEMPLATE_PATH, 'utf8')) !== readFileSync(TEMPLATE_PATH, 'utf8'))
  fail("the APIs' 405 fallbacks are not their routes': run npm run deploy:sync");
console.log('every function has its BuildProperties of infra/deploy/build.ts (the bench measures these)');

step("esbuild, one run per function with SAM's flags");
const built = await buildFunctions(join(ROOT, '.local', 'deploy-check'), 'exact');
console.log(`${built.length} bundles, e.g. esbuild ${built[0].args.join(' ')}`);

step(`generated parts of template.yaml, ${LOGS_FILE} and ${ALARMS_FILE} (npm run deploy:sync)`);
if (syncTemplate(readFileSync(TEMPLATE_PATH, 'utf8'), built) !== readFileSync(TEMPLATE_PATH, 'utf8')) {
  fail('template.yaml is not what the code implies: run npm run deploy:sync and review the diff');
}
if (alarmsTemplate(built.map((fn) => fn.id)) !== readFileSync(ALARMS_PATH, 'utf8')) {
  fail(`${ALARMS_FILE} is not what the code implies: run npm run deploy:sync and review the diff`);
}
if (logsTemplateOf(loadTemplate(), built) !== readFileSync(LOGS_PATH, 'utf8')) {
  fail(`${LOGS_FILE} is not what the code implies: run npm run deploy:sync and review the diff`);
}
console.log('policies, log groups and alarms match the bundles');

step(`load every handler in a fresh Node ${process.version} process as the runtime does and call it once`);
const template = loadTemplate();
const literalEnv = literalFunctionEnv(template);
const stub = await startStubEndpoint();
const queue = [...built];
const failures: string[] = [];
await Promise.all(
  [0, 1].map(async () => {
    for (let fn = queue.shift(); fn; fn = queue.shift()) {
      const env = { ...lambdaEnv('--enable-source-maps', stub.url), ...stub.env, ...literalEnv.get(fn.id) };
      try {
        const s = await sample(fn.file, fn.handler, firstCallEvent(template, fn.id), env);
        if (s.status !== null && (typeof s.status !== 'number' || s.status >= 500))
          throw new Error(`its first call answered ${s.status}`);
        console.log(
          `  ${fn.id.padEnd(34)} ${(readFileSync(fn.file).length / 1024).toFixed(0).padStart(5)} KiB  ` +
            `load ${s.loadMs.toFixed(0).padStart(3)} ms, first call ${s.status ?? '(no response: not HTTP)'}`,
        );
      } catch (err) {
        failures.push(`${fn.id}: ${(err as { stderr?: string }).stderr || (err as Error).message}`);
      }
    }
  }),
);
await stub.close();
if (failures.length) fail(`handlers that do not load or answer:\n${failures.join('\n')}`);
console.log('\ndeploy:check passed');
