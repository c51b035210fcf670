// The WebSocket API's management calls (@aws-sdk/client-apigatewaymanagementapi) are granted as
// execute-api:ManageConnections on this stack's WebSocket API and stage only, per HTTP method of the
// calls a bundle can send (infra/deploy/iam.ts): a function that only sends may not close connections.
import { describe, expect, it } from 'vitest';
import type { BuiltFunction } from '../../infra/deploy/build.ts';
import { derivePolicy } from '../../infra/deploy/iam.ts';
import { loadTemplate } from '../../infra/local/template.ts';

const template = loadTemplate();
const bundle = (content: string): BuiltFunction => ({
  id: 'NotesLiveMessageFunction',
  entry: 'functions/notes/live-message.ts',
  handler: 'handler',
  file: 'x.js',
  args: [],
  code: '',
  sources: [{ path: 'lib/notes/live/adapters/x.ts', content }],
});
const connections = (fn: BuiltFunction) =>
  derivePolicy(fn, template).find((s) => s.Sid === 'LiveConnections');

describe('execute-api:ManageConnections', () => {
  it('is scoped to the WebSocket API, its stage and the methods the bundle calls', () => {
    const sends = bundle(
      "import { ApiGatewayManagementApiClient, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';\n" +
        'new PostToConnectionCommand({});',
    );
    expect(connections(sends)).toEqual({
      Sid: 'LiveConnections',
      Action: ['execute-api:ManageConnections'],
      Resource: [
        {
          'Fn::Sub':
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation !Sub string
            'arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${NotesLiveApi}/${StageName}/POST/@connections/*',
        },
      ],
    });
    const closes = bundle(
      "import { DeleteConnectionCommand, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';\n" +
        'new PostToConnectionCommand({}); new DeleteConnectionCommand({});',
    );
    expect(
      connections(closes)?.Resource.map((r) => JSON.stringify(r).match(/\/(\w+)\/@connections/)?.[1]),
    ).toEqual(['DELETE', 'POST']);
    expect(connections(bundle("import { GetItemCommand } from '@aws-sdk/client-dynamodb';"))).toBeUndefined();
  });
});
