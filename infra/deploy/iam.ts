// One source of truth for IAM: a function may do exactly what its bundle can send. The SDK commands
// come from the bundle itself: the source files its source map lists (those that put code in it),
// the commands they import from @aws-sdk packages, and of those the ones constructed (`new
// XCommand(`) on a line the source map shows in the bundle: code esbuild dropped sends nothing. The
// secrets come from the <NAME>_ARN variables the bundle reads. Each command maps to the IAM actions and resources below; a command without a
// mapping is an error, so a new kind of call cannot slip through with no policy (or a wide one).
import type { Template } from '../local/template.ts';
import type { BuiltFunction } from './build.ts';

export type Resource = string | { Ref: string } | { 'Fn::GetAtt': [string, string] } | { 'Fn::Sub': string };
export interface Statement {
  Sid: string;
  Action: string[];
  Resource: Resource[];
}
export interface Command {
  service: string;
  operation: string;
}

/** @aws-sdk/lib-dynamodb document commands → the DynamoDB operation they send. */
const DOCUMENT_COMMANDS: Record<string, string> = {
  GetCommand: 'GetItem',
  PutCommand: 'PutItem',
  UpdateCommand: 'UpdateItem',
  DeleteCommand: 'DeleteItem',
  QueryCommand: 'Query',
  ScanCommand: 'Scan',
  BatchGetCommand: 'BatchGetItem',
  BatchWriteCommand: 'BatchWriteItem',
  TransactGetCommand: 'TransactGetItems',
  TransactWriteCommand: 'TransactWriteItems',
};
const SERVICES: Record<string, string> = {
  '@aws-sdk/lib-dynamodb': 'dynamodb',
  '@aws-sdk/client-dynamodb': 'dynamodb',
  '@aws-sdk/client-s3': 's3',
  '@aws-sdk/client-sns': 'sns',
  '@aws-sdk/client-sesv2': 'ses',
  '@aws-sdk/client-secrets-manager': 'secretsmanager',
  '@aws-sdk/client-sqs': 'sqs',
  '@aws-sdk/client-apigatewaymanagementapi': 'execute-api',
  '@aws-sdk/client-pinpoint-sms-voice-v2': 'sms-voice',
};

/** The management API's commands → the HTTP method of `@connections/<id>` they call (IAM's resource). */
const CONNECTION_METHODS: Record<string, string> = {
  PostToConnection: 'POST',
  GetConnection: 'GET',
  DeleteConnection: 'DELETE',
};

const IMPORT = /(?:import|export)\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"](@aws-sdk\/[\w-]+)['"]/g;

/** Names a source constructs (`new Name(`) on lines in the bundle; every name if the lines are unknown. */
function constructed(content: string, lines: Set<number> | undefined): (name: string) => boolean {
  if (!lines) return () => true;
  const used = new Set<string>();
  content.split('\n').forEach((text, i) => {
    if (lines.has(i)) for (const [, name] of text.matchAll(/\bnew\s+(\w+)\s*\(/g)) used.add(name);
  });
  return (name) => used.has(name);
}

/** The SDK commands the bundle's own code constructs (imported from @aws-sdk, on lines in the bundle). */
export function commandsOf(fn: BuiltFunction): Command[] {
  const found = new Map<string, Command>();
  for (const { path, content, lines } of fn.sources) {
    if (path.includes('node_modules/')) continue;
    const inBundle = constructed(content, lines);
    for (const [, names, pkg] of content.matchAll(IMPORT)) {
      for (const raw of names.split(',')) {
        const name = raw.trim().split(/\s+as\s+/)[0];
        if (!name.endsWith('Command') || name.startsWith('type ')) continue;
        const local = raw
          .trim()
          .split(/\s+as\s+/)
          .pop()!;
        if (!inBundle(local)) continue;
        const service = SERVICES[pkg];
        if (!service)
          throw new Error(
            `${fn.id}: ${name} from ${pkg}: no IAM mapping for this package (infra/deploy/iam.ts)`,
          );
        const operation =
          pkg === '@aws-sdk/lib-dynamodb' ? DOCUMENT_COMMANDS[name] : name.replace(/Command$/, '');
        if (!operation)
          throw new Error(`${fn.id}: ${name} from ${pkg}: unknown document command (infra/deploy/iam.ts)`);
        found.set(`${service}:${operation}`, { service, operation });
      }
    }
  }
  return [...found.values()].sort((a, b) =>
    `${a.service}:${a.operation}`.localeCompare(`${b.service}:${b.operation}`),
  );
}

/** Transaction items by kind (`{ Put: … }`, …) → the action DynamoDB authorizes each item of that kind by. */
const TRANSACTION_ITEMS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

/**
 * The actions a bundle's TransactWriteItems need: DynamoDB authorizes each item of a transaction by
 * its own action, so a role allows only the kinds of items the bundle's own code builds (`Put:`,
 * `Update:`, `Delete:`, `ConditionCheck:` keys on lines the source map keeps). A GET that records a
 * history entry in a transaction (Update + Put) may then not delete. Finding none, every kind: a
 * role is never narrower than what the code may send.
 */
export function transactionActionsOf(fn: BuiltFunction): string[] {
  const found = new Set<string>();
  for (const { path, content, lines } of fn.sources) {
    if (path.includes('node_modules/')) continue;
    content.split('\n').forEach((text, i) => {
      if (lines && !lines.has(i)) return;
      for (const [, kind] of text.matchAll(/\b(Put|Update|Delete|ConditionCheck)\s*:/g))
        found.add(TRANSACTION_ITEMS[kind]);
    });
  }
  return (found.size ? [...found] : Object.values(TRANSACTION_ITEMS)).sort();
}

const logicalIdOf = (t: Template, type: string): string => {
  const ids = Object.entries(t.Resources)
    .filter(([, r]) => r.Type === type)
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one ${type} in the template, found ${ids.length}`);
  return ids[0];
};

/** Secret-id variables (value: !Ref of an AWS::SecretsManager::Secret) → the secret's logical id. */
export function secretVariables(t: Template, functionId: string): Map<string, string> {
  const vars = {
    ...(t.Globals?.Function?.Environment as { Variables?: Record<string, unknown> })?.Variables,
    ...t.Resources[functionId]?.Properties?.Environment?.Variables,
  };
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(vars ?? {})) {
    const ref = (value as { Ref?: string })?.Ref;
    if (ref && t.Resources[ref]?.Type === 'AWS::SecretsManager::Secret') out.set(name, ref);
  }
  return out;
}

/** Queues a function is given (its own variables whose value is a !Ref of an AWS::SQS::Queue). */
export function queueVariables(t: Template, functionId: string): string[] {
  const vars = t.Resources[functionId]?.Properties?.Environment?.Variables ?? {};
  return Object.values(vars as Record<string, unknown>)
    .map((v) => (v as { Ref?: string })?.Ref)
    .filter((ref): ref is string => !!ref && t.Resources[ref]?.Type === 'AWS::SQS::Queue')
    .sort();
}

/** The statements a function's role needs for what its bundle can send. */
export function derivePolicy(fn: BuiltFunction, t: Template): Statement[] {
  const table = logicalIdOf(t, 'AWS::DynamoDB::Table');
  const bucket = logicalIdOf(t, 'AWS::S3::Bucket');
  const groups = new Map<string, Statement>();
  const allow = (sid: string, actions: string[], resources: Resource[]) => {
    const s = groups.get(sid) ?? groups.set(sid, { Sid: sid, Action: [], Resource: [] }).get(sid)!;
    for (const a of actions) if (!s.Action.includes(a)) s.Action.push(a);
    for (const r of resources)
      if (!s.Resource.some((x) => JSON.stringify(x) === JSON.stringify(r))) s.Resource.push(r);
  };
  for (const { service, operation } of commandsOf(fn)) {
    const command = `${service}:${operation}`;
    if (service === 'dynamodb') {
      const actions =
        operation === 'TransactWriteItems'
          ? transactionActionsOf(fn)
          : operation === 'TransactGetItems'
            ? ['GetItem']
            : [operation];
      const onIndexes = operation === 'Query' || operation === 'Scan';
      allow(
        'Table',
        actions.filter(() => !onIndexes).map((a) => `dynamodb:${a}`),
        [{ 'Fn::GetAtt': [table, 'Arn'] }],
      );
      if (onIndexes) {
        allow(
          'TableAndIndexes',
          [`dynamodb:${operation}`],
          [{ 'Fn::GetAtt': [table, 'Arn'] }, { 'Fn::Sub': `\${${table}.Arn}/index/*` }],
        );
      }
    } else if (service === 's3') {
      const objectActions: Record<string, string[]> = {
        PutObject: ['s3:PutObject'],
        GetObject: ['s3:GetObject'],
        HeadObject: ['s3:GetObject'],
        DeleteObject: ['s3:DeleteObject'],
        DeleteObjects: ['s3:DeleteObject'],
        CopyObject: ['s3:GetObject', 's3:PutObject'],
      };
      if (objectActions[operation])
        allow('BucketObjects', objectActions[operation], [{ 'Fn::Sub': `\${${bucket}.Arn}/*` }]);
      else if (operation === 'ListObjectsV2' || operation === 'ListObjects')
        allow('Bucket', ['s3:ListBucket'], [{ 'Fn::GetAtt': [bucket, 'Arn'] }]);
      else throw new Error(`${fn.id}: ${command} has no IAM mapping (infra/deploy/iam.ts)`);
    } else if (command === 'sns:Publish' || command === 'sns:CreatePlatformEndpoint') {
      // Mobile push: endpoints of this account's platform applications (PushPlatformApplicationArn).
      allow(
        'PushNotifications',
        [command],
        [
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation !Sub string
          { 'Fn::Sub': 'arn:${AWS::Partition}:sns:${AWS::Region}:${AWS::AccountId}:app/*' },
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation !Sub string
          { 'Fn::Sub': 'arn:${AWS::Partition}:sns:${AWS::Region}:${AWS::AccountId}:endpoint/*' },
        ],
      );
    } else if (command === 'sms-voice:SendTextMessage' || command === 'sms-voice:SendVoiceMessage') {
      // Codes by SMS and voice: this account's origination identities (phone numbers, pools, sender ids).
      allow(
        'SmsVoiceCodes',
        [command],
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation !Sub string
        [{ 'Fn::Sub': 'arn:${AWS::Partition}:sms-voice:${AWS::Region}:${AWS::AccountId}:*' }],
      );
    } else if (command === 'ses:SendEmail') {
      allow(
        'EmailCodes',
        ['ses:SendEmail'],
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation !Sub string
        [{ 'Fn::Sub': 'arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/*' }],
      );
    } else if (command === 'secretsmanager:GetSecretValue') {
      const read = [...secretVariables(t, fn.id)]
        .filter(([name]) => fn.code.includes(`"${name}"`))
        .map(([, id]) => id);
      if (read.length === 0)
        throw new Error(`${fn.id}: sends GetSecretValue but reads no <NAME>_ARN secret variable`);
      allow(
        'Secrets',
        ['secretsmanager:GetSecretValue'],
        read.sort().map((id) => ({ Ref: id })),
      );
    } else if (command === 'sqs:SendMessage' || command === 'sqs:SendMessageBatch') {
      // SendMessageBatch is authorized as sqs:SendMessage; only the queues the function is given.
      const queues = queueVariables(t, fn.id);
      if (queues.length === 0) throw new Error(`${fn.id}: sends to SQS but is given no queue variable`);
      allow(
        'Queues',
        ['sqs:SendMessage'],
        queues.map((id) => ({ 'Fn::GetAtt': [id, 'Arn'] as [string, string] })),
      );
    } else if (service === 'execute-api' && CONNECTION_METHODS[operation]) {
      // The live functions answer their connections: this WebSocket API's stage, this method only.
      const api = logicalIdOf(t, 'AWS::ApiGatewayV2::Api');
      const arn = `arn:\${AWS::Partition}:execute-api:\${AWS::Region}:\${AWS::AccountId}:\${${api}}/\${StageName}`;
      allow(
        'LiveConnections',
        ['execute-api:ManageConnections'],
        [{ 'Fn::Sub': `${arn}/${CONNECTION_METHODS[operation]}/@connections/*` }],
      );
    } else {
      throw new Error(`${fn.id}: ${command} has no IAM mapping (infra/deploy/iam.ts)`);
    }
  }
  const statements = [...groups.values()].filter((s) => s.Action.length > 0);
  for (const s of statements) s.Action.sort();
  return statements.sort((a, b) => a.Sid.localeCompare(b.Sid));
}

/** Every (action, resource) pair of a list of statements, as comparable strings. */
export const grants = (
  statements: Array<{ Effect?: string; Action: string | string[]; Resource: unknown }>,
): string[] =>
  statements
    .filter((s) => (s.Effect ?? 'Allow') === 'Allow')
    .flatMap((s) =>
      [s.Action].flat().flatMap((a) => [s.Resource].flat().map((r) => `${a} ${JSON.stringify(r)}`)),
    )
    .sort();
