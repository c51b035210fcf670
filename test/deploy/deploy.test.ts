// The template deploys as written: cfn-lint finds nothing (errors, warnings or informational), the
// SAM transform succeeds, and in the transformed template each function's role allows exactly what
// its bundle (built as `sam build` builds it) can send, one role per function; every function has, in
// the nested log groups stack (logs.yaml), its log group and, in the nested alarms stack (alarms.yaml),
// its alarm; the three stacks stay within CloudFormation's limits.
// cfn-lint and aws-sam-translator are Python tools: where they are missing the test says so and skips.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALARMS_FILE,
  ALARMS_PATH,
  ALARMS_STACK,
  alarmsTemplate,
  functionNameParameter,
} from '../../infra/deploy/alarms.ts';
import { buildFunctions, samEsbuildArgs, type BuiltFunction } from '../../infra/deploy/build.ts';
import { commandsOf, derivePolicy, grants } from '../../infra/deploy/iam.ts';
import { docsWithFigures, figuresBlock, figuresOf, functionsThatFit } from '../../infra/deploy/figures.ts';
import { LOGS_FILE, LOGS_PATH, LOGS_STACK, logsTemplateOf } from '../../infra/deploy/logs.ts';
import { syncBuildProperties, syncFallbacks, syncRoutes, syncTemplate } from '../../infra/deploy/sync.ts';
import { listFunctions, loadTemplate, ROOT, TEMPLATE_PATH } from '../../infra/local/template.ts';

const template = loadTemplate();
const python = (args: string[]) =>
  spawnSync('python3', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const has = (module: string) => python(['-c', `import ${module}`]).status === 0;
const cfnLint = has('cfnlint.runner');
const samTranslator = has('samtranslator');
if (!cfnLint)
  console.log(
    '[deploy test] cfn-lint is not installed for python3 (pip install cfn-lint): lint check skipped',
  );
if (!samTranslator)
  console.log('[deploy test] aws-sam-translator is not installed for python3: transform checks skipped');

type Resources = Record<
  string,
  { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string }
>;
let built: BuiltFunction[];
// The bundles (about 190 MB) are removed when the file's tests end, pass or fail.
const buildDir = join(ROOT, '.local', 'test-deploy-build', String(process.pid));
afterAll(() => rmSync(buildDir, { recursive: true, force: true }));
let transformed: { Resources: Resources; Parameters: Record<string, unknown> };
let packagedBytes: number;
type Nested = {
  path: string;
  template: {
    Resources: Resources;
    Parameters: Record<string, unknown>;
    Outputs?: Record<string, { Value: { Ref: string } }>;
  };
  resources: number;
  parameters: number;
  outputs: number;
  packagedBytes: number;
};
let nested: Record<string, Nested>;

beforeAll(async () => {
  built = await buildFunctions(buildDir, 'shared');
  if (samTranslator) {
    const out = python(['infra/deploy/transform.py', 'template.yaml']);
    if (out.status !== 0) throw new Error(out.stderr);
    ({ transformed, packagedBytes, nested } = JSON.parse(out.stdout));
  }
}, 300_000);

const byType = (type: string) => Object.entries(transformed.Resources).filter(([, r]) => r.Type === type);
type InlinePolicy = { PolicyName: string; PolicyDocument: { Statement: unknown[] } };
/** SAM's own grant for an event source's on-failure destination (`<Function><Event>SQSPolicy`). */
const isDestinationPolicy = (p: InlinePolicy) => p.PolicyName.endsWith('SQSPolicy');
const inlineStatements = (roleId: string, opts: { destinations?: boolean } = {}) =>
  (transformed.Resources[roleId]?.Properties.Policies ?? [])
    .filter((p: InlinePolicy) => opts.destinations !== false || !isDestinationPolicy(p))
    .flatMap((p: InlinePolicy) => p.PolicyDocument.Statement);

describe('cfn-lint', () => {
  it.skipIf(!cfnLint)(
    `template.yaml, ${LOGS_FILE} and ${ALARMS_FILE} have no finding, informational ones included`,
    () => {
      const out = python([
        '-c',
        'import sys; from cfnlint.runner import main; sys.exit(main())',
        '--format',
        'json',
        '--include-checks',
        'I',
        '--',
        'template.yaml',
        LOGS_FILE,
        ALARMS_FILE,
      ]);
      expect(JSON.parse(out.stdout || '[]')).toEqual([]);
      expect(out.status).toBe(0);
    },
    120_000,
  );
});

describe.skipIf(!samTranslator)('the transformed template', () => {
  it('stays well under CloudFormation limits; the packaged template needs an S3 bucket', () => {
    const count = Object.keys(transformed.Resources).length;
    console.log(
      `[deploy test] ${count} resources after the SAM transform; packaged template ${packagedBytes} bytes`,
    );
    // 500 is CloudFormation's limit; a function costs the resources SAM makes for it (function, role, one
    // permission per route, event source mappings; about 3.6 today), rounded up: at least
    // ten more functions must fit (below 460 resources at 4 each).
    const { perFunction } = figuresOf({ transformed, packagedBytes, nested });
    console.log(`[deploy test] ${perFunction} resources per function`);
    expect(perFunction).toBeGreaterThanOrEqual(3);
    expect(functionsThatFit(count, perFunction)).toBeGreaterThanOrEqual(10);
    expect(count).toBeLessThanOrEqual(500 - 10 * Math.ceil(perFunction));
    // Least privilege stays: each function has a role of its own.
    for (const [id, fn] of byType('AWS::Lambda::Function'))
      expect(fn.Properties.Role, id).toEqual({ 'Fn::GetAtt': [`${id}Role`, 'Arn'] });
    expect(Object.keys(transformed.Parameters).length).toBeLessThanOrEqual(200);
    expect(packagedBytes).toBeGreaterThan(51_200); // docs/deploy.md: `sam deploy` needs resolve_s3
  });

  it('the log groups are one nested stack, within its own limits (500 resources, 200 outputs, 1 MB)', () => {
    const logs = nested[LOGS_STACK];
    console.log(
      `[deploy test] nested ${LOGS_STACK} (${logs.path}): ${logs.resources} resources, ` +
        `${logs.outputs} outputs, ${logs.parameters} parameters, ${logs.packagedBytes} bytes`,
    );
    expect(logs.path).toBe(LOGS_FILE);
    expect(transformed.Resources[LOGS_STACK].Type).toBe('AWS::CloudFormation::Stack');
    expect(transformed.Resources[LOGS_STACK].Properties.TemplateURL).toMatch(/^https:\/\/s3\./);
    expect(logs.resources).toBe(built.length);
    expect(logs.outputs).toBe(built.length);
    expect(logs.parameters).toBe(2);
    expect(logs.resources).toBeLessThanOrEqual(500);
    expect(logs.outputs).toBeLessThanOrEqual(200);
    expect(logs.packagedBytes).toBeLessThan(1024 * 1024); // TemplateURL's limit
  });

  it('the alarms are one nested stack, within its own limits (500 resources, 200 parameters, 1 MB)', () => {
    expect(Object.keys(nested).sort()).toEqual([ALARMS_STACK, LOGS_STACK].sort());
    const alarms = nested[ALARMS_STACK];
    console.log(
      `[deploy test] nested ${ALARMS_STACK} (${alarms.path}): ${alarms.resources} resources, ` +
        `${alarms.parameters} parameters, ${alarms.packagedBytes} bytes`,
    );
    expect(alarms.path).toBe(ALARMS_FILE);
    expect(transformed.Resources[ALARMS_STACK].Type).toBe('AWS::CloudFormation::Stack');
    // sam package replaces the local Location with the uploaded template's URL.
    expect(transformed.Resources[ALARMS_STACK].Properties.TemplateURL).toMatch(/^https:\/\/s3\./);
    expect(alarms.resources).toBe(built.length);
    expect(alarms.parameters).toBe(built.length + 1);
    expect(alarms.resources).toBeLessThanOrEqual(500);
    expect(alarms.parameters).toBeLessThanOrEqual(200);
    expect(alarms.packagedBytes).toBeLessThan(1024 * 1024); // TemplateURL's limit
  });

  it('the docs show the figures measured here (npm run deploy:sync writes them)', () => {
    const figures = figuresOf({ transformed, packagedBytes, nested });
    expect(figures.functions).toBe(built.length);
    expect(figures.resources).toBe(Object.keys(transformed.Resources).length);
    expect(figuresBlock(figures)).toContain(`**${built.length} functions**`);
    const stale = docsWithFigures(figures).filter((d) => d.stale);
    expect(
      stale.map((d) => d.file),
      'stale figures: run npm run deploy:sync',
    ).toEqual([]);
    // A figure that changes makes its page stale.
    const more = { ...figures, resources: figures.resources + 1 };
    expect(docsWithFigures(more).map((d) => [d.file, d.stale])).toEqual([
      ['docs/deploy.md', true],
      ['docs/local.md', false],
    ]);
  });

  it("each function's role allows exactly what its bundle can send", () => {
    for (const fn of built) {
      const derived = grants(derivePolicy(fn, template).map((s) => ({ ...s, Effect: 'Allow' })));
      expect(grants(inlineStatements(`${fn.id}Role`, { destinations: false })), fn.id).toEqual(derived);
      // SAM adds the stream-reading managed policy to a function fed by the table's stream (trash
      // purge, webhook router), the queue-polling one to a function fed by a queue (webhook delivery),
      // and for a stream's on-failure queue a grant to send to that queue only.
      const events = Object.values(template.Resources[fn.id]?.Properties?.Events ?? {}) as {
        Type: string;
        Properties: { DestinationConfig?: { OnFailure?: { Destination: unknown } } };
      }[];
      const streamFed = events.some((e) => e.Type === 'DynamoDB');
      const queueFed = events.some((e) => e.Type === 'SQS');
      expect(transformed.Resources[`${fn.id}Role`].Properties.ManagedPolicyArns, fn.id).toEqual([
        'arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
        ...(streamFed ? ['arn:aws:iam::aws:policy/service-role/AWSLambdaDynamoDBExecutionRole'] : []),
        ...(queueFed ? ['arn:aws:iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole'] : []),
      ]);
      const destinations = events.flatMap(
        (e) => e.Properties.DestinationConfig?.OnFailure?.Destination ?? [],
      );
      const destinationGrants = (transformed.Resources[`${fn.id}Role`].Properties.Policies ?? [])
        .filter(isDestinationPolicy)
        .flatMap((p: InlinePolicy) => p.PolicyDocument.Statement);
      expect(grants(destinationGrants), fn.id).toEqual(
        grants(destinations.map((d) => ({ Action: 'sqs:SendMessage', Resource: d }))),
      );
    }
  });

  it("no dynamodb:Scan anywhere; no Resource '*'", () => {
    for (const [id] of byType('AWS::IAM::Role')) {
      for (const grant of grants(inlineStatements(id))) {
        expect(grant, id).not.toMatch(/^dynamodb:Scan /);
        expect(grant, id).not.toMatch(/ "\*"$/);
      }
    }
  });

  it('only the functions whose bundles read a secret may read it; no secret value in any environment', () => {
    const readers = built
      .filter((fn) => commandsOf(fn).some((c) => c.operation === 'GetSecretValue'))
      .map((f) => f.id);
    expect(readers).toEqual(expect.arrayContaining(['NewsGetCsrfTokenFunction', 'BankVerifyFunction']));
    for (const [id, fn] of byType('AWS::Lambda::Function')) {
      const env = JSON.stringify(fn.Properties.Environment ?? {});
      expect(env, id).not.toMatch(/resolve:secretsmanager|InternalApiKey"/);
      const canRead = grants(inlineStatements(`${id}Role`)).some((g) =>
        g.startsWith('secretsmanager:GetSecretValue'),
      );
      expect(canRead, id).toBe(readers.includes(id));
    }
    for (const id of ['CsrfSigningSecret', 'MfaEncryptionKey']) {
      expect(transformed.Resources[id], id).toMatchObject({
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    }
  });

  it('every function logs JSON to its own log group (retention parameter) and has an errors + throttles alarm', () => {
    // The alarms are in the nested stack; the parent gives it each function's name as a parameter.
    const stack = transformed.Resources[ALARMS_STACK].Properties;
    const alarms = Object.values(nested[ALARMS_STACK].template.Resources)
      .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
      .map((a) => a.Properties);
    expect(stack.Parameters.AlarmTopicArn).toEqual({ Ref: 'AlarmTopicArn' });
    // The log groups are in the other nested stack; each function names its group from an output.
    const logs = nested[LOGS_STACK].template;
    expect(transformed.Resources[LOGS_STACK].Properties.Parameters.LogRetentionDays).toEqual({
      Ref: 'LogRetentionDays',
    });
    const groups = new Set<string>();
    for (const [id, fn] of byType('AWS::Lambda::Function')) {
      const logging = fn.Properties.LoggingConfig;
      expect(logging, id).toMatchObject({ LogFormat: 'JSON', ApplicationLogLevel: { Ref: 'LogLevel' } });
      const [stackId, output] = logging.LogGroup['Fn::GetAtt'];
      expect(stackId, id).toBe(LOGS_STACK);
      const groupId = logs.Outputs?.[output.replace(/^Outputs\./, '')]?.Value.Ref;
      const group = logs.Resources[groupId ?? ''];
      expect(group?.Type, id).toBe('AWS::Logs::LogGroup');
      expect(group?.Properties.RetentionInDays, id).toEqual({ Ref: 'LogRetentionDays' });
      groups.add(groupId!);
      expect(fn.Properties.TracingConfig, id).toBeUndefined();
      const parameter = functionNameParameter(id);
      expect(stack.Parameters[parameter], id).toEqual({ Ref: id });
      const alarm = alarms.find((a) =>
        JSON.stringify(a.Metrics ?? []).includes(`{"Name":"FunctionName","Value":{"Ref":"${parameter}"}}`),
      );
      expect(alarm, id).toBeDefined();
      expect(
        alarm!.Metrics.map((m: any) => m.MetricStat?.Metric.MetricName)
          .filter(Boolean)
          .sort(),
        id,
      ).toEqual(['Errors', 'Throttles']);
      expect(alarm!.AlarmActions, id).toEqual([{ Ref: 'AlarmTopicArn' }]);
    }
    expect(groups.size).toBe(built.length); // a group of its own each
    expect((template.Parameters!.LogRetentionDays as { Default: number }).Default).toBe(30);
  });

  it('every API stage writes JSON access logs and every API has a 5XX alarm to the topic', () => {
    const alarms = byType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    for (const [id, stage] of byType('AWS::ApiGateway::Stage')) {
      const setting = stage.Properties.AccessLogSetting;
      expect(setting?.DestinationArn?.['Fn::GetAtt']?.[1], id).toBe('Arn');
      expect(Object.keys(JSON.parse(setting.Format)), id).toEqual(
        expect.arrayContaining(['requestId', 'status', 'path']),
      );
    }
    for (const [id, api] of byType('AWS::ApiGateway::RestApi')) {
      const name = api.Properties.Name['Fn::Sub'];
      const alarm = alarms.find(
        (a) => a.MetricName === '5XXError' && a.Dimensions?.[0]?.Value?.['Fn::Sub'] === name,
      );
      expect(alarm?.AlarmActions, id).toEqual([{ Ref: 'AlarmTopicArn' }]);
    }
  });

  it('the images bucket refuses requests without TLS', () => {
    const policy = transformed.Resources.ImagesBucketPolicy.Properties.PolicyDocument.Statement;
    expect(policy).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: '*',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
  });
});

describe('the images distribution serves notes/ and nothing else', () => {
  const resources = template.Resources as Record<string, { Type: string; Properties: any }>;

  it("the bucket policy grants CloudFront GetObject on notes/* only: the bucket's search indexes stay unreadable", () => {
    const statements = resources.ImagesBucketPolicy.Properties.PolicyDocument.Statement as any[];
    const grants = statements.filter((s) => s.Effect === 'Allow');
    expect(grants).toEqual([
      expect.objectContaining({
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation !Sub string
        Resource: { 'Fn::Sub': '${ImagesBucket.Arn}/notes/*' },
      }),
    ]);
  });

  it('the edge refuses every path that is not a well-formed image key, as the runner does (IMAGE_KEY)', async () => {
    const { IMAGE_KEY } = await import('../../lib/notes/images/adapters/s3-images.ts');
    const behaviour = resources.ImagesDistribution.Properties.DistributionConfig.DefaultCacheBehavior;
    expect(behaviour.FunctionAssociations).toEqual([
      {
        EventType: 'viewer-request',
        FunctionARN: { 'Fn::GetAtt': ['ImagesKeyFilter', 'FunctionMetadata', 'FunctionARN'] },
      },
    ]);
    expect(resources.ImagesDistribution.Properties.DistributionConfig.CacheBehaviors).toBeUndefined();
    // The function's own code, run as CloudFront runs it (a viewer request in, the request or a response out).
    const code = resources.ImagesKeyFilter.Properties.FunctionCode as string;
    const handler = new Function(`${code}; return handler;`)() as (e: unknown) => { statusCode?: number };
    const status = (uri: string) => handler({ request: { uri, method: 'GET' } }).statusCode ?? 200;
    const key = 'notes/AbCdEfGhIjKlMnOpQrStUv/q1w2e3r4t5y6u7i8o9p0.png';
    expect(IMAGE_KEY.test(key)).toBe(true);
    expect(status(`/${key}`)).toBe(200);
    for (const uri of [
      '/search/ws/1.sqlite',
      '/search/ws/rebuild.json.gz',
      '/notes/..%2fsearch%2fws%2f1.sqlite',
      '/notes/%2e%2e/search/ws/1.sqlite',
      '/notes/%252e%252e%252fsearch/x.sqlite',
      '/notes/x/..%5csearch%5cws%5c1.sqlite',
      '/notes/x/../../search/1.sqlite',
      '/notes/',
      '/',
      '/notes/AbCdEfGh/',
    ]) {
      expect(status(uri), uri).toBe(404);
      expect(IMAGE_KEY.test(uri.slice(1)), uri).toBe(false);
    }
  });
});

describe('one source of truth for IAM', () => {
  it('template.yaml, logs.yaml and alarms.yaml hold what `npm run deploy:sync` derives from the code', () => {
    const text = readFileSync(TEMPLATE_PATH, 'utf8');
    expect(syncRoutes(text) === text, "the routed functions' blocks are stale: run npm run deploy:sync").toBe(
      true,
    );
    expect(syncBuildProperties(text) === text, 'BuildProperties are stale: run npm run deploy:sync').toBe(
      true,
    );
    expect(syncTemplate(text, built) === text, 'template.yaml is stale: run npm run deploy:sync').toBe(true);
    expect(syncFallbacks(text) === text, "the APIs' 405 fallbacks are stale: run npm run deploy:sync").toBe(
      true,
    );
    const alarms = alarmsTemplate(built.map((fn) => fn.id));
    expect(alarms === readFileSync(ALARMS_PATH, 'utf8'), `${ALARMS_FILE} is stale: npm run deploy:sync`).toBe(
      true,
    );
    const logs = logsTemplateOf(template, built);
    expect(logs === readFileSync(LOGS_PATH, 'utf8'), `${LOGS_FILE} is stale: npm run deploy:sync`).toBe(true);
  });

  it('the derivation is not vacuous: a bundle that could Scan would need dynamodb:Scan', () => {
    const fn = built.find((f) => f.id === 'NotesGetMeFunction')!;
    const scanning = {
      ...fn,
      sources: [
        ...fn.sources,
        { path: 'lib/x.ts', content: "import { ScanCommand } from '@aws-sdk/lib-dynamodb';" },
      ],
    };
    expect(grants(derivePolicy(scanning, template).map((s) => ({ ...s, Effect: 'Allow' })))).toContain(
      'dynamodb:Scan {"Fn::GetAtt":["Table","Arn"]}',
    );
    const unmapped = {
      ...fn,
      sources: [
        { path: 'lib/x.ts', content: "import { PutBucketPolicyCommand } from '@aws-sdk/client-s3';" },
      ],
    };
    expect(() => derivePolicy(unmapped, template)).toThrow(/no IAM mapping/);
  });

  it("builds with the flags SAM's esbuild workflow passes for the BuildProperties", () => {
    expect(
      samEsbuildArgs(
        {
          EntryPoints: ['functions/notes/get-me.ts'],
          Target: 'es2023',
          Minify: true,
          Sourcemap: true,
          SourcesContent: 'false',
          External: ['x'],
        },
        'out',
      ),
    ).toEqual([
      'functions/notes/get-me.ts',
      '--bundle',
      '--platform=node',
      '--outdir=out',
      '--format=cjs',
      '--minify',
      '--sourcemap',
      '--target=es2023',
      '--sources-content=false',
      '--external:x',
    ]);
    for (const fn of listFunctions(template)) {
      expect(fn.metadata.BuildProperties.Sourcemap, fn.id).toBe(true);
      // Maps without the sources' text: stack traces stay mapped, and Lambda parses ~70% less at init.
      expect(fn.metadata.BuildProperties.SourcesContent, fn.id).toBe('false');
    }
  });

  it('a built handler is CommonJS (.js) that a fresh Node process imports as the runtime does, and exports its handler', () => {
    const fn = built.find((f) => f.id === 'NotesGetMeFunction')!;
    expect(fn.file.endsWith('.js')).toBe(true);
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(fn.file)}); process.stdout.write(typeof m.${fn.handler})`,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(out).toBe('function');
  });

  it('the functions that run SQLite are ES modules (.mjs) that a fresh Node process imports, and export their handlers', () => {
    for (const id of ['NotesSearchNotesFunction', 'NotesIndexNotesFunction']) {
      const fn = built.find((f) => f.id === id)!;
      expect(fn.file.endsWith('.mjs'), id).toBe(true);
      const out = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(fn.file)}); process.stdout.write(typeof m.${fn.handler})`,
        ],
        { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
      );
      expect(out, id).toBe('function');
    }
  });
});
