// What API Gateway itself answers (no function runs): the template's gateway responses, rendered
// with vtl.ts, carrying X-Request-Id and the same security headers the functions send (middy's
// http-security-headers, run on the response).
import type { ServerResponse } from 'node:http';
import httpSecurityHeaders from '@middy/http-security-headers';
import { gatewayResponses, type GatewayResponse, type Template } from './template.ts';
import { renderHeader, renderTemplate } from './vtl.ts';

/** The gateway response types the runner produces, with API Gateway's own status for each. */
export const GATEWAY_STATUS = {
  MISSING_AUTHENTICATION_TOKEN: 403,
  BAD_REQUEST_PARAMETERS: 400,
  REQUEST_TOO_LARGE: 413,
  INTEGRATION_FAILURE: 504,
  INTEGRATION_TIMEOUT: 504,
  /**
   * Not a gateway response type: a function error (it threw, crashed or returned a malformed
   * result). API Gateway answers 502 and renders DEFAULT_5XX (with its StatusCode, if it sets one).
   */
  FUNCTION_ERROR: 502,
  /** Not gateway response types either: requests Node's HTTP parser refuses (rendered as DEFAULT_4XX). */
  URI_TOO_LONG: 414,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  MALFORMED_REQUEST: 400,
} as const;
export type GatewayResponseType = keyof typeof GATEWAY_STATUS;

export interface GatewayContext {
  requestId: string;
  resourcePath: string;
  method: string;
  path: string;
  message: string;
  /** The status when the API's gateway response sets none (default: GATEWAY_STATUS of the type). */
  status?: number;
}

const securityHeaders = httpSecurityHeaders();

/** The functions' security headers, then `headers` (which win), for a response the runner writes. */
export async function withSecurityHeaders(headers: Record<string, string>): Promise<Record<string, string>> {
  const request = { response: { statusCode: 200, headers: {} as Record<string, string> } };
  await (securityHeaders.after as (r: unknown) => Promise<void>)(request);
  return { ...request.response.headers, ...headers };
}

export class Gateway {
  constructor(private readonly template: Template) {}

  /** The gateway response of `type` for the API, rendered: status, headers and body. */
  async render(apiId: string, type: GatewayResponseType, ctx: GatewayContext) {
    const all = gatewayResponses(apiId, this.template);
    const serverSide = GATEWAY_STATUS[type] >= 500;
    const gr: GatewayResponse = all[type] ?? all[serverSide ? 'DEFAULT_5XX' : 'DEFAULT_4XX'] ?? {};
    const status = gr.StatusCode ?? ctx.status ?? GATEWAY_STATUS[type];
    const c = {
      requestId: ctx.requestId,
      resourcePath: ctx.resourcePath,
      httpMethod: ctx.method,
      path: ctx.path,
      errorMessage: ctx.message,
    };
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Request-Id': ctx.requestId,
    };
    for (const [k, v] of Object.entries(gr.ResponseParameters?.Headers ?? {}))
      headers[k] = renderHeader(String(v), c);
    const body = renderTemplate(
      gr.ResponseTemplates?.['application/json'] ?? '{"message":$context.error.messageString}',
      c,
    );
    headers['Content-Length'] = String(Buffer.byteLength(body));
    return { status: Number(status), headers: await withSecurityHeaders(headers), body };
  }

  /**
   * Writes the response. With `until`, the response is written whole at once but ended only when
   * `until` settles: a refused body still being sent is read (and discarded) first, so the client,
   * still writing, can read the answer instead of losing the connection (EPIPE).
   */
  async respond(
    res: ServerResponse,
    apiId: string,
    type: GatewayResponseType,
    ctx: GatewayContext,
    until?: Promise<void>,
  ): Promise<void> {
    const { status, headers, body } = await this.render(apiId, type, ctx);
    if (!res.headersSent) res.writeHead(status, headers);
    if (!until) return void res.end(body);
    res.write(body);
    await until;
    res.end();
  }
}
