// Reads template.yaml (with CloudFormation short-form tags) and answers the questions the local
// runner, the tests and the bench ask of it. template.yaml is the only place routes are listed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, type ScalarTag, type CollectionTag } from 'yaml';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TEMPLATE_PATH = `${ROOT}template.yaml`;

// !Ref x -> {Ref: x}; !GetAtt a.b -> {'Fn::GetAtt': [a, b]}; every other !Fn -> {'Fn::Fn': value}.
const INTRINSICS = [
  'Base64',
  'Cidr',
  'FindInMap',
  'GetAZs',
  'ImportValue',
  'Join',
  'Select',
  'Split',
  'Sub',
  'Transform',
  'And',
  'Equals',
  'If',
  'Not',
  'Or',
  'Condition',
];
const tag = (name: string, wrap: (v: unknown) => unknown): Array<ScalarTag | CollectionTag> => [
  { tag: `!${name}`, resolve: (v: string) => wrap(v) } as ScalarTag,
  {
    tag: `!${name}`,
    collection: 'seq',
    resolve: (v: { toJSON(): unknown }) => wrap(v.toJSON()),
  } as unknown as CollectionTag,
  {
    tag: `!${name}`,
    collection: 'map',
    resolve: (v: { toJSON(): unknown }) => wrap(v.toJSON()),
  } as unknown as CollectionTag,
];
const CFN_TAGS = [
  ...tag('Ref', (v) => ({ Ref: v })),
  ...tag('GetAtt', (v) => ({ 'Fn::GetAtt': typeof v === 'string' ? v.split('.') : v })),
  ...INTRINSICS.flatMap((n) => tag(n, (v) => ({ [n === 'Condition' ? 'Condition' : `Fn::${n}`]: v }))),
];

export type Template = {
  Parameters?: Record<string, { Type: string; Default?: unknown }>;
  Conditions?: Record<string, unknown>;
  Globals?: Record<string, Record<string, unknown>>;
  Resources: Record<
    string,
    { Type: string; Properties?: Record<string, any>; Metadata?: Record<string, any> }
  >;
  Outputs?: Record<string, unknown>;
};

export const parseTemplate = (text: string): Template =>
  parse(text, { customTags: CFN_TAGS, merge: false }) as Template;
export const loadTemplate = (path = TEMPLATE_PATH): Template => parseTemplate(readFileSync(path, 'utf8'));

export interface Route {
  functionId: string;
  apiId: string; // the API callers reach the route through
  gatewayApiId: string; // the API whose gateway responses answer when the function fails
  method: string; // upper case, or ANY
  path: string; // API Gateway resource path, e.g. /v1/notes/{noteId}
  entry: string; // source file relative to the repository root
  handler: string; // exported name
}

/** APIs another API reaches through an HTTP proxy at the same paths (News status): id -> public API. */
export function proxiedApis(t: Template = loadTemplate()): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, res] of Object.entries(t.Resources)) {
    if (res.Type !== 'AWS::Serverless::Api') continue;
    for (const operations of Object.values<Record<string, any>>(
      res.Properties?.DefinitionBody?.paths ?? {},
    )) {
      for (const op of Object.values<any>(operations)) {
        const uri = JSON.stringify(op?.['x-amazon-apigateway-integration']?.uri ?? '');
        const target = /\$\{(\w+)\}\.execute-api/.exec(uri);
        if (target) out.set(target[1], id);
      }
    }
  }
  return out;
}

/** An Api event's method as API Gateway matches it: `any` and its OpenAPI spelling
 * `x-amazon-apigateway-any-method` (the one MergeDefinitions keeps, docs/deploy.md) are ANY. */
const methodOf = (method: unknown): string => {
  const m = String(method).toUpperCase();
  return m === 'X-AMAZON-APIGATEWAY-ANY-METHOD' ? 'ANY' : m;
};

/** A function's Lambda integration in an API's own definition (`${Function.Arn}` in its uri). */
const integratedFunction = (op: any): string | undefined => {
  const integration = op?.['x-amazon-apigateway-integration'];
  if (integration?.type !== 'aws_proxy') return undefined;
  return /\$\{(\w+)\.Arn\}/.exec(JSON.stringify(integration.uri ?? ''))?.[1];
};

/**
 * Every route of the template, as API Gateway will hold them after the SAM transform: each
 * function's Api events (SAM merges them into their API's definition) and the Lambda integrations an
 * API's own DefinitionBody names (the 405 fallbacks that `npm run deploy:sync` writes there).
 */
export function listRoutes(t: Template = loadTemplate()): Route[] {
  const routes: Route[] = [];
  const proxied = proxiedApis(t);
  const route = (functionId: string, gatewayApiId: string, method: unknown, path: string): Route => {
    const res = t.Resources[functionId];
    const entry = res?.Metadata?.BuildProperties?.EntryPoints?.[0] as string;
    const handler =
      String(res?.Properties?.Handler ?? '')
        .split('.')
        .pop() ?? 'handler';
    return {
      functionId,
      apiId: proxied.get(gatewayApiId) ?? gatewayApiId,
      gatewayApiId,
      method: methodOf(method),
      path,
      entry,
      handler,
    };
  };
  for (const [functionId, res] of Object.entries(t.Resources)) {
    if (res.Type !== 'AWS::Serverless::Function') continue;
    for (const ev of Object.values<any>(res.Properties?.Events ?? {})) {
      if (ev.Type !== 'Api') continue;
      routes.push(route(functionId, ev.Properties.RestApiId?.Ref, ev.Properties.Method, ev.Properties.Path));
    }
  }
  for (const [apiId, res] of Object.entries(t.Resources)) {
    if (res.Type !== 'AWS::Serverless::Api') continue;
    for (const [path, operations] of Object.entries<Record<string, any>>(
      res.Properties?.DefinitionBody?.paths ?? {},
    )) {
      for (const [method, op] of Object.entries<any>(operations)) {
        const functionId = integratedFunction(op);
        if (functionId) routes.push(route(functionId, apiId, method, path));
      }
    }
  }
  return routes;
}

export const listFunctions = (t: Template = loadTemplate()) =>
  Object.entries(t.Resources)
    .filter(([, r]) => r.Type === 'AWS::Serverless::Function')
    .map(([id, r]) => ({
      id,
      entry: r.Metadata?.BuildProperties?.EntryPoints?.[0] as string,
      properties: r.Properties ?? {},
      metadata: r.Metadata ?? {},
    }));

export const apiProperties = (apiId: string, t: Template = loadTemplate()) =>
  t.Resources[apiId]?.Properties ?? {};

export const binaryMediaTypes = (apiId: string, t: Template = loadTemplate()): string[] =>
  (apiProperties(apiId, t).BinaryMediaTypes ?? []).map((m: string) => m.replace(/~1/g, '/'));

export interface GatewayResponse {
  StatusCode?: number;
  ResponseParameters?: { Headers?: Record<string, string> };
  ResponseTemplates?: Record<string, string>;
}
export const gatewayResponses = (
  apiId: string,
  t: Template = loadTemplate(),
): Record<string, GatewayResponse> => apiProperties(apiId, t).GatewayResponses ?? {};

/**
 * A condition of the template, with every parameter at its default (the local stack is a new stack):
 * Fn::Equals of a parameter Ref and a literal, Fn::Not, Fn::Or, Fn::And, Condition.
 */
export function conditionHolds(t: Template, c: unknown): boolean {
  const value = (v: unknown): unknown =>
    v && typeof v === 'object' && 'Ref' in v ? t.Parameters?.[String(v.Ref)]?.Default : v;
  const e = c as Record<string, unknown[]> & { Condition?: string };
  if (typeof c === 'string') return conditionHolds(t, t.Conditions?.[c]);
  if (e.Condition) return conditionHolds(t, t.Conditions?.[e.Condition]);
  if (e['Fn::Equals']) return String(value(e['Fn::Equals'][0])) === String(value(e['Fn::Equals'][1]));
  if (e['Fn::Not']) return !conditionHolds(t, e['Fn::Not'][0]);
  if (e['Fn::Or']) return e['Fn::Or'].some((x) => conditionHolds(t, x));
  if (e['Fn::And']) return e['Fn::And'].every((x) => conditionHolds(t, x));
  throw new Error(`unsupported condition ${JSON.stringify(c)}`);
}

/** A list's Fn::If entries resolved (AWS::NoValue drops the entry). */
export const resolveIfs = <T>(t: Template, list: unknown[] = []): T[] =>
  list.flatMap((entry) => {
    const branch = (entry as { 'Fn::If'?: [string, unknown, unknown] })['Fn::If'];
    if (!branch) return [entry as T];
    const chosen = conditionHolds(t, branch[0]) ? branch[1] : branch[2];
    return (chosen as { Ref?: string })?.Ref === 'AWS::NoValue' ? [] : [chosen as T];
  });

/** The table's CreateTable input, from the template's own AWS::DynamoDB::Table resource. */
export function tableDefinition(t: Template = loadTemplate()) {
  const [logicalId, res] = Object.entries(t.Resources).find(([, r]) => r.Type === 'AWS::DynamoDB::Table')!;
  const p = res.Properties!;
  return {
    logicalId,
    create: {
      AttributeDefinitions: p.AttributeDefinitions,
      KeySchema: p.KeySchema,
      GlobalSecondaryIndexes: resolveIfs<any>(t, p.GlobalSecondaryIndexes),
      BillingMode: p.BillingMode,
      ...(p.StreamSpecification
        ? {
            StreamSpecification: {
              StreamEnabled: true,
              StreamViewType: p.StreamSpecification.StreamViewType,
            },
          }
        : {}),
    },
    ttlAttribute: p.TimeToLiveSpecification?.Enabled
      ? (p.TimeToLiveSpecification.AttributeName as string)
      : undefined,
  };
}
