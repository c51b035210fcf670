// The cold-start bench and deploy:check call a WebSocket API's functions with the events API Gateway
// sends them (not a REST event), and a floor can replay the management API calls a first call made.
import { describe, expect, it } from 'vitest';
import { firstCallEvent, floorSource } from '../../infra/bench/coldstart.ts';
import { loadTemplate } from '../../infra/local/template.ts';
import { webSocketApi } from '../../infra/local/websocket.ts';

const template = loadTemplate();
const routes = webSocketApi(template)!.routes;

describe('cold start of a WebSocket API function', () => {
  it('gets the event of its route: $connect with a ticket, $default with a text body, $disconnect', () => {
    const connect = firstCallEvent(template, routes.get('$connect')!.functionId);
    expect(connect).toMatchObject({
      queryStringParameters: { ticket: 'x' },
      requestContext: { routeKey: '$connect', eventType: 'CONNECT', connectionId: expect.any(String) },
      isBase64Encoded: false,
    });
    const message = firstCallEvent(template, routes.get('$default')!.functionId);
    expect(message).toMatchObject({
      body: expect.any(String),
      requestContext: { routeKey: '$default', eventType: 'MESSAGE', messageId: expect.any(String) },
    });
    expect(firstCallEvent(template, routes.get('$disconnect')!.functionId)).toMatchObject({
      requestContext: { routeKey: '$disconnect', eventType: 'DISCONNECT', disconnectStatusCode: 1000 },
    });
    // A REST function still gets its REST event.
    expect(firstCallEvent(template, 'NotesGetMeFunction')).toMatchObject({
      httpMethod: 'GET',
      path: '/v1/me',
    });
  });

  it('a floor creates the management API client and replays the @connections call', () => {
    const src = floorSource({
      services: ['dynamodb', 'execute-api'],
      requests: [
        { service: 'dynamodb', op: 'GetItem' },
        { service: 'execute-api', op: 'PostToConnection' },
      ],
      libraries: [],
    });
    expect(src).toContain(
      "import { ApiGatewayManagementApiClient, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';",
    );
    expect(src).toContain('const execute_api = new ApiGatewayManagementApiClient({});');
    expect(src).toContain('last = await execute_api.send(new PostToConnectionCommand(event.requests[1]));');
  });
});
