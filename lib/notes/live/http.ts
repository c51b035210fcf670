// The WebSocket routes' glue: a handler of an API Gateway WebSocket event answers 200, or the status
// of the domain error it threw (on $connect a non-2xx answer refuses the upgrade with that status).
// The event is never logged whole: its query string holds the ticket.
import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { toApiError } from '../../http/errors.ts';
import { logger } from '../../http/logger.ts';

/** $connect's event also carries the query string and headers (absent from the $default type). */
export type WebsocketEvent = APIGatewayProxyWebsocketEventV2 & {
  queryStringParameters?: Record<string, string | undefined>;
};

export const websocketRoute =
  (handle: (event: WebsocketEvent, connectionId: string) => Promise<unknown>) =>
  async (event: WebsocketEvent): Promise<APIGatewayProxyResultV2> => {
    const { connectionId, routeKey } = event.requestContext;
    try {
      await handle(event, connectionId);
      return { statusCode: 200 };
    } catch (err) {
      const { error, unexpected } = toApiError(err);
      if (unexpected) logger.error('live route failed', { routeKey, connectionId, err });
      return {
        statusCode: error.status,
        body: JSON.stringify({ error: { code: error.type, message: error.description } }),
      };
    }
  };
