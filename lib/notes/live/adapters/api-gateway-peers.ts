// The far end of live connections: API Gateway's @connections API (locally the runner's stand-in at
// NOTES_LIVE_CONNECTIONS_URL), through the real SDK. A gone connection (410) is `false`.
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { config } from '../../../config.ts';

let client: ApiGatewayManagementApiClient | undefined;
const connections = () =>
  (client ??= new ApiGatewayManagementApiClient({ endpoint: config.liveConnectionsUrl }));

export async function sendToConnection(connectionId: string, data: string): Promise<boolean> {
  try {
    await connections().send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: data }));
    return true;
  } catch (err) {
    if (err instanceof GoneException) return false;
    throw err;
  }
}

export async function closeConnection(connectionId: string): Promise<void> {
  try {
    await connections().send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
  } catch (err) {
    if (!(err instanceof GoneException)) throw err;
  }
}
