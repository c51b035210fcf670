// template.yaml is the single source of truth: valid SAM, every handler exists, routes unique,
// the 405 fallbacks agree with the routes, gateway responses speak each API's dialect.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { indexName } from '../../lib/data/dynamo.ts';
import { INDEXES, TABLE_KEYS } from '../../lib/data/keys.ts';
import {
  gatewayResponses,
  listFunctions,
  listRoutes,
  loadTemplate,
  resolveIfs,
  ROOT,
} from '../../infra/local/template.ts';
import { NOTE_FIELDS } from '../../lib/notes/kernel/adapters/note-items.ts';

const template = loadTemplate();
const schema = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'vendor', 'sam.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

describe('template.yaml', () => {
  it('validates against the official SAM schema', () => {
    const valid = validate(template);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the schema check is not vacuous: an unknown function property is rejected', () => {
    const broken = structuredClone(template);
    (broken.Resources.NotesGetMeFunction.Properties as Record<string, unknown>).Handlr = 'x';
    expect(validate(broken)).toBe(false);
  });

  it('every function is esbuild-built from an existing file that exports handler, on nodejs24.x arm64', () => {
    expect(template.Globals?.Function?.Runtime).toBe('nodejs24.x');
    expect(template.Globals?.Function?.Architectures).toEqual(['arm64']);
    for (const fn of listFunctions(template)) {
      expect(fn.metadata.BuildMethod, fn.id).toBe('esbuild');
      expect(existsSync(join(ROOT, fn.entry)), `${fn.id}: ${fn.entry}`).toBe(true);
      const base = fn.entry.split('/').pop()!.replace(/\.ts$/, '');
      expect(fn.properties.Handler, fn.id).toBe(`${base}.handler`);
      expect(readFileSync(join(ROOT, fn.entry), 'utf8')).toMatch(/export const handler\b/);
    }
  });

  it('every route (API, method, path) is unique', () => {
    const keys = listRoutes(template).map((r) => `${r.apiId} ${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("each API's 405 fallbacks list exactly the methods of its routes, each the paths it is on", () => {
    const routes = listRoutes(template);
    const fallbacks = listFunctions(template).filter((f) => f.id.endsWith('MethodNotAllowedFunction'));
    const byApi = new Map<string, Record<string, string[]>>();
    for (const fn of fallbacks) {
      const anyPaths = routes.filter((r) => r.functionId === fn.id).map((r) => r.path);
      const apiId = routes.find((r) => r.functionId === fn.id)!.apiId;
      const declared: Record<string, string> = JSON.parse(
        fn.properties.Environment.Variables.ALLOWED_METHODS,
      );
      expect(Object.keys(declared).sort(), fn.id).toEqual(anyPaths.sort());
      const all = byApi.get(apiId) ?? {};
      for (const [p, m] of Object.entries(declared)) all[p] = m.split(',').sort();
      byApi.set(apiId, all);
    }
    expect([...byApi.keys()].sort()).toEqual(['BankApi', 'NewsApi', 'NotesApi']);
    for (const [apiId, declared] of byApi) {
      const expected: Record<string, string[]> = {};
      for (const r of routes)
        if (r.apiId === apiId && r.method !== 'ANY') (expected[r.path] ??= []).push(r.method);
      expect(declared, apiId).toEqual(
        Object.fromEntries(Object.entries(expected).map(([p, m]) => [p, m.sort()])),
      );
    }
  });

  it('gateway responses: unknown route 404, throttled 429 with Retry-After, 5xx, in each dialect', () => {
    for (const api of ['NotesApi', 'NewsApi', 'BankApi']) {
      const gr = gatewayResponses(api, template);
      expect(gr.MISSING_AUTHENTICATION_TOKEN.StatusCode, api).toBe(404);
      expect(gr.THROTTLED.StatusCode, api).toBe(429);
      expect(gr.THROTTLED.ResponseParameters?.Headers?.['Retry-After'], api).toBeDefined();
      // No StatusCode: it would replace the 502 API Gateway gives for a function error (and every other 5XX's).
      expect(gr.DEFAULT_5XX.StatusCode, api).toBeUndefined();
      const body = gr.MISSING_AUTHENTICATION_TOKEN.ResponseTemplates!['application/json'];
      if (api === 'NewsApi') expect(JSON.parse(body)).toEqual({ error: true, response: 'notFound' });
      else expect(JSON.parse(body)).toMatchObject({ code: 40400 });
    }
  });

  it('one table with generic keys, on-demand, PITR and TTL; a private bucket', () => {
    const table = template.Resources.Table.Properties!;
    expect(table.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled).toBe(true);
    expect(table.TimeToLiveSpecification.Enabled).toBe(true);
    // The key names the code uses (lib/data/keys.ts) are the table's.
    expect(table.KeySchema.map((k: { AttributeName: string }) => k.AttributeName)).toEqual([
      TABLE_KEYS.pk,
      TABLE_KEYS.sk,
    ]);
    expect(table.TimeToLiveSpecification.AttributeName).toBe(TABLE_KEYS.ttl);
    // A new stack has the indexes the code queries, each projecting the attributes keys.ts lists.
    const indexes = resolveIfs<{ IndexName: string; Projection: Record<string, unknown> }>(
      template,
      table.GlobalSecondaryIndexes,
    );
    expect(indexes.map((i) => i.IndexName)).toEqual([...TABLE_KEYS.indexes]);
    for (const index of Object.values(INDEXES)) {
      const declared = indexes.find((i) => i.IndexName === index.name)!;
      expect(declared.Projection, index.name).toEqual({
        ProjectionType: 'INCLUDE',
        NonKeyAttributes: [...index.include],
      });
    }
    const block = template.Resources.ImagesBucket.Properties!.PublicAccessBlockConfiguration;
    expect(Object.values(block).every(Boolean)).toBe(true);
  });

  it('indexes project every field the listings return', () => {
    for (const id of ['GSI1', 'GSI3'] as const)
      expect(INDEXES[id].include, id).toEqual(expect.arrayContaining([...NOTE_FIELDS, 'hooked']));
    expect(INDEXES.GSI1.include).toEqual(expect.arrayContaining(['deletedAt', 'deletedBy', 'purgeAt']));
    expect(INDEXES.GSI2.include).toContain('note');
    // DynamoDB's cap: at most 100 projected attributes summed over the table's indexes.
    expect(Object.values(INDEXES).reduce((n, i) => n + i.include.length, 0)).toBeLessThanOrEqual(100);
  });

  it('IndexUpgradeStep: each step adds or removes at most one index, and functions query only indexes that exist', () => {
    const steps = template.Parameters!.IndexUpgradeStep as unknown as { AllowedValues: string[] };
    const at = (step: string) => {
      const t = {
        ...template,
        Parameters: { ...template.Parameters, IndexUpgradeStep: { Type: 'String', Default: step } },
      };
      return resolveIfs<{ IndexName: string }>(t, t.Resources.Table.Properties!.GlobalSecondaryIndexes).map(
        (i) => i.IndexName,
      );
    };
    const legacy = ['GSI1', 'GSI2', 'GSI3'];
    let before = legacy; // the first layout
    for (const step of steps.AllowedValues) {
      const now = at(step);
      const changed = [...now.filter((i) => !before.includes(i)), ...before.filter((i) => !now.includes(i))];
      // Step 4 changes no index: it moves the functions to the new ones (then the data migrates).
      expect(changed, `step ${step}`).toHaveLength(step === '4' ? 0 : 1);
      process.env.INDEX_UPGRADE_STEP = step;
      const queried = (['GSI1', 'GSI2', 'GSI3'] as const).map(indexName);
      expect(now, `step ${step}`).toEqual(expect.arrayContaining(queried));
      before = now;
    }
    delete process.env.INDEX_UPGRADE_STEP;
    expect(before).toEqual([...TABLE_KEYS.indexes]);
  });

  it('functions use no SAM policy template: every statement is generated from the bundle (deploy:sync)', () => {
    for (const fn of listFunctions(template)) {
      for (const policy of fn.properties.Policies as unknown[]) {
        expect(Object.keys(policy as object), fn.id).toEqual(['Statement']);
      }
      expect(fn.properties.LoggingConfig, fn.id).toEqual({
        LogGroup: { 'Fn::GetAtt': ['FunctionLogs', 'Outputs', `${fn.id.replace(/Function$/, '')}LogGroup`] },
      });
    }
  });

  it('every API has an inline definition that SAM merges its events into (GatewayResponses need one)', () => {
    for (const [id, res] of Object.entries(template.Resources)) {
      if (res.Type !== 'AWS::Serverless::Api') continue;
      expect(res.Properties!.DefinitionBody?.openapi, id).toBe('3.0.1');
      // Without MergeDefinitions SAM adds no Api event to an inline definition (docs/deploy.md).
      expect(res.Properties!.MergeDefinitions, id).toBe(true);
      expect(res.Properties!.AccessLogSetting?.DestinationArn, id).toBeDefined();
    }
  });

  it("the News status route's own API answers a failed status function with the offline body", () => {
    const offline = { error: true, response: { vg: false, uptime: -1, errorsCount: -1, requestsServed: -1 } };
    const status = gatewayResponses('NewsStatusApi', template);
    for (const type of ['INTEGRATION_FAILURE', 'INTEGRATION_TIMEOUT', 'DEFAULT_5XX']) {
      expect(status[type].StatusCode, type).toBe(503);
      expect(JSON.parse(status[type].ResponseTemplates!['application/json']), type).toEqual(offline);
    }
    expect(
      listRoutes(template)
        .filter((r) => r.gatewayApiId === 'NewsStatusApi')
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['GET /api/v1/status/web-api', 'ANY /api/v1/status/web-api']);
  });

  it('no secret in any function environment: secret ids (Refs) in Globals, values from Secrets Manager', () => {
    const globals = (template.Globals!.Function.Environment as { Variables: Record<string, unknown> })
      .Variables;
    for (const name of ['CSRF_SIGNING_SECRET_ARN', 'MFA_ENCRYPTION_KEY_ARN', 'INTERNAL_API_KEY_ARN']) {
      const ref = (globals[name] as { Ref: string }).Ref;
      expect(template.Resources[ref].Type, name).toBe('AWS::SecretsManager::Secret');
    }
    const environments = JSON.stringify([
      globals,
      ...listFunctions(template).map((f) => f.properties.Environment),
    ]);
    expect(environments).not.toMatch(/resolve:secretsmanager|"Ref":"InternalApiKey"/);
    expect(template.Globals!.Function.Tracing).toBeUndefined();
    expect(template.Globals!.Function.LoggingConfig).toMatchObject({
      LogFormat: 'JSON',
      ApplicationLogLevel: { Ref: 'LogLevel' },
    });
  });

  it("publishLink: the Notes API's own URL by default, PublicBaseUrl (a custom domain) when it is set", () => {
    const envOf = (t: typeof template, id: string) =>
      t.Resources[id].Properties!.Environment.Variables as Record<string, unknown>;
    const globals = (template.Globals!.Function.Environment as { Variables: Record<string, unknown> })
      .Variables;
    // Every function reads the parameter (empty: lib/config.ts takes the URL its request arrived at).
    expect(globals.PUBLIC_BASE_URL).toEqual({ Ref: 'PublicBaseUrl' });
    // The webhook router presents notes in events and serves no request: the same URL, from the template.
    const invokeUrl = (template.Outputs!.NotesApiUrl as { Value: { 'Fn::Sub': string } }).Value['Fn::Sub'];
    const routerBase = (t: typeof template) =>
      resolveIfs(t, [envOf(t, 'NotesRouteWebhookEventsFunction').PUBLIC_BASE_URL]);
    expect(template.Parameters!.PublicBaseUrl.Default).toBe('');
    expect(routerBase(template)).toEqual([{ 'Fn::Sub': invokeUrl.replace(/\/v1$/, '') }]);
    const customDomain = structuredClone(template);
    customDomain.Parameters!.PublicBaseUrl.Default = 'https://notes.example.org';
    expect(routerBase(customDomain)).toEqual([{ Ref: 'PublicBaseUrl' }]);
    // No function of the Notes API names the Notes API (the API names its functions: a cycle).
    const notesApiFunctions = listFunctions(template).filter((f) =>
      Object.values(f.properties.Events ?? {}).some(
        (e) =>
          (e as { Properties?: { RestApiId?: { Ref?: string } } }).Properties?.RestApiId?.Ref === 'NotesApi',
      ),
    );
    expect(notesApiFunctions.length).toBeGreaterThan(40);
    for (const f of notesApiFunctions)
      expect(JSON.stringify(f.properties.Environment ?? {}), f.id).not.toMatch(/NotesApi/);
  });

  it("images are served with nosniff and CSP default-src 'none' (CloudFront response headers policy)", () => {
    const behavior =
      template.Resources.ImagesDistribution.Properties!.DistributionConfig.DefaultCacheBehavior;
    expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: 'ImagesResponseHeadersPolicy' });
    const headers =
      template.Resources.ImagesResponseHeadersPolicy.Properties!.ResponseHeadersPolicyConfig
        .SecurityHeadersConfig;
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.ContentSecurityPolicy).toEqual({
      ContentSecurityPolicy: "default-src 'none'",
      Override: true,
    });
  });
});
