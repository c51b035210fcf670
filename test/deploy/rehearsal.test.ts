// The deploy rehearsal: what CloudFormation receives after the SAM transform, created in moto
// (infra/deploy/rehearse.py, in process: no network), and the local runner's routes held against it.
// `npm start` routes from the source template's Events; this file fails when the transform would
// drop a route the runner serves, or add one it does not. Where Python lacks aws-sam-translator or
// moto, it says why and skips.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Rehearsal, rehearsalUnavailable, rehearse } from '../../infra/deploy/rehearsal.ts';
import { Router } from '../../infra/local/routes.ts';
import {
  gatewayResponses,
  listFunctions,
  listRoutes,
  loadTemplate,
  ROOT,
  TEMPLATE_PATH,
} from '../../infra/local/template.ts';

const why = rehearsalUnavailable();
if (why) console.log(`[deploy rehearsal] ${why}: skipped`);

type Body = {
  paths: Record<string, Record<string, { 'x-amazon-apigateway-integration'?: Record<string, unknown> }>>;
  'x-amazon-apigateway-gateway-responses'?: Record<
    string,
    {
      statusCode?: string;
      responseParameters?: Record<string, string>;
      responseTemplates?: Record<string, string>;
    }
  >;
};
let rehearsal: Rehearsal;
let bodies: Record<string, Body>;
const scratch = mkdtempSync(join(tmpdir(), 'tri-api-rehearsal-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(() => {
  if (why) return;
  rehearsal = rehearse();
  const out = spawnSync('python3', ['infra/deploy/transform.py', 'template.yaml'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (out.status !== 0) throw new Error(out.stderr);
  const resources: Record<string, { Type: string; Properties: { Body?: Body } }> = JSON.parse(out.stdout)
    .transformed.Resources;
  bodies = Object.fromEntries(
    Object.entries(resources)
      .filter(([, r]) => r.Type === 'AWS::ApiGateway::RestApi')
      .map(([id, r]) => [id, r.Properties.Body!]),
  );
}, 120_000);

const methodOf = (m: string) => (m === 'x-amazon-apigateway-any-method' ? 'ANY' : m.toUpperCase());
/** "<API> <METHOD> <path> -> <function or proxied API>" of every method of the transformed APIs. */
const transformedRoutes = () =>
  Object.entries(bodies).flatMap(([api, body]) =>
    Object.entries(body.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const uri = JSON.stringify(op['x-amazon-apigateway-integration']?.uri ?? '');
        const target = /\$\{(\w+)\.Arn\}/.exec(uri)?.[1] ?? /\$\{(\w+)\}\.execute-api/.exec(uri)?.[1];
        return `${api} ${methodOf(method)} ${path} -> ${target}`;
      }),
    ),
  );

describe.skipIf(why)('the deploy rehearsal (moto)', () => {
  it('finds nothing AWS would refuse', () => {
    expect(rehearsal.problems).toEqual([]);
  });

  it('creates the whole stack, nested stacks included, every resource moto emulates', () => {
    const stacks = rehearsal.rehearsal.stacks!;
    expect(Object.keys(stacks).sort()).toEqual(['FunctionAlarms', 'FunctionLogs', 'root']);
    for (const [id, s] of Object.entries(stacks)) expect(s.status, id).toBe('CREATE_COMPLETE');
    expect(stacks.root.createComplete).toBeGreaterThan(300);
    expect(stacks.FunctionLogs.createComplete).toBe(stacks.FunctionLogs.resources);
    // What moto cannot create stays covered by cfn-lint and the checks (docs/deploy.md lists them).
    console.log(`[deploy rehearsal] not emulated by moto: ${rehearsal.rehearsal.notEmulated!.join(', ')}`);
    expect(rehearsal.rehearsal.notEmulated).toContain('AWS::CloudWatch::Alarm');
    expect(rehearsal.rehearsal.notEmulated).not.toContain('AWS::ApiGateway::RestApi');
  });

  it('imports, deploys and stages each REST API with every method of its transformed definition', () => {
    const apis = rehearsal.rehearsal.restApis!;
    expect(Object.keys(apis).sort()).toEqual(['BankApi', 'NewsApi', 'NewsStatusApi', 'NotesApi']);
    for (const [id, api] of Object.entries(apis)) {
      expect(api.deployed, id).toBe(true);
      const defined = Object.entries(bodies[id].paths).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${methodOf(m)} ${p}`),
      );
      expect(api.imported, id).toEqual(defined.sort());
    }
    expect(rehearsal.rehearsal.restApis!.NotesApi.imported.length).toBeGreaterThan(100);
  });

  it("creates the WebSocket API's routes with their integrations", () => {
    const live = rehearsal.rehearsal.webSocket!.NotesLiveApi;
    expect(live.routes).toEqual(expect.arrayContaining(['$connect', '$default', '$disconnect']));
    expect(live.integrations).toBeGreaterThanOrEqual(3);
  });

  it('keeps each function within what Lambda and IAM accept at create time', () => {
    const limits = rehearsal.rehearsal.limits!;
    expect(limits.functions).toBe(listFunctions(loadTemplate()).length);
    expect(limits.largestEnvironment[1]).toBeLessThan(4096);
    expect(limits.largestRolePolicies[1]).toBeLessThan(10_240);
    for (const [fn, p] of Object.entries(rehearsal.checks.resourcePolicies))
      expect(p.bytesAtLongestStackName, fn).toBeLessThan(20_480);
  });
});

describe.skipIf(why)("the local runner serves what the transformed template's APIs route", () => {
  it('holds the same routes (API, method, path, function), both ways', () => {
    const template = loadTemplate();
    // The runner's own table, as infra/local/runner.ts builds it.
    const runner = new Router(listRoutes(template)).routes.map(
      (r) => `${r.gatewayApiId} ${r.method} ${r.path} -> ${r.functionId}`,
    );
    const proxies = transformedRoutes().filter((r) => / -> \w+Api$/.test(r));
    const transformed = transformedRoutes().filter((r) => !proxies.includes(r));
    expect(runner.sort()).toEqual(transformed.sort());
    // A proxy route (News status) reaches its API's routes at the same paths, as the runner serves them.
    expect(proxies).toEqual(['NewsApi ANY /api/v1/status/web-api -> NewsStatusApi']);
    expect(template.Resources.NewsStatusApi).toBeDefined();
  });

  it("answers with each API's gateway responses as the transformed definitions hold them", () => {
    const template = loadTemplate();
    for (const [api, body] of Object.entries(bodies)) {
      const transformed = body['x-amazon-apigateway-gateway-responses'] ?? {};
      const local = gatewayResponses(api, template);
      expect(Object.keys(transformed).sort(), api).toEqual(Object.keys(local).sort());
      for (const [type, gr] of Object.entries(local)) {
        const t = transformed[type];
        expect(t.statusCode, `${api} ${type}`).toBe(
          gr.StatusCode === undefined ? undefined : String(gr.StatusCode),
        );
        expect(t.responseTemplates, `${api} ${type}`).toEqual(gr.ResponseTemplates);
        expect(t.responseParameters, `${api} ${type}`).toEqual(
          Object.fromEntries(
            Object.entries(gr.ResponseParameters?.Headers ?? {}).map(([h, v]) => [
              `gatewayresponse.header.${h}`,
              v,
            ]),
          ),
        );
      }
    }
  });
});

describe.skipIf(why)('the rehearsal fails what broke the deploy before', () => {
  it('an inline definition SAM does not merge into, two variables under one parent, a missing grant', () => {
    for (const f of ['logs.yaml', 'alarms.yaml']) copyFileSync(join(ROOT, f), join(scratch, f));
    const text = readFileSync(TEMPLATE_PATH, 'utf8');
    const broken = text
      // BankApi with an inline definition SAM does not merge its events into (no MergeDefinitions).
      .replace(/( {2}BankApi:[\s\S]*?) {6}MergeDefinitions: true\n/, '$1')
      // NewsStatusApi as it was: an empty inline definition, no MergeDefinitions: no method at all.
      .replace(
        /( {2}NewsStatusApi:[\s\S]*?) {6}MergeDefinitions: true\n[\s\S]*?# ---- end of the generated 405 fallback ----\n/,
        "$1      DefinitionBody: { openapi: '3.0.1', info: { title: status, version: '1' }, paths: {} }\n",
      )
      // A page path with a variable name of its own under the root, beside /{address}.
      .replace("Path: '/{address}/{permalink}'", "Path: '/{owner}/{permalink}'")
      // News's 405 fallback without the grant that lets NewsApi invoke it.
      .replace(/ {2}NewsMethodNotAllowedPermission:\n( {4}.*\n| {6}.*\n)+/, '');
    expect(broken).not.toBe(text);
    writeFileSync(join(scratch, 'template.yaml'), broken);
    const found = rehearse(join(scratch, 'template.yaml')).problems.join('\n');
    expect(found).toMatch(/NewsStatusApi: its definition has no method/);
    expect(found).toMatch(
      /BankCreateTransferFunctionApiPermissionStage: .* matches no method or route of its API/,
    );
    expect(found).toMatch(/The REST API doesn't contain any methods/);
    expect(found).toMatch(/NotesApi: \/ has variable children \['\{address\}', '\{owner\}'\]/);
    expect(found).toMatch(
      /NewsApi: no permission lets it invoke NewsMethodNotAllowedFunction for GET \/api\/v1\/news/,
    );
  });
});
