// Gateway responses rendered by API Gateway's rules: "A GatewayResponse mapping template isn't
// processed by the VTL engine" — only $context.* and $stageVariables.* are substituted, so a
// directive (#if, #set, #foreach …) would reach the client as text. The runner therefore refuses,
// when it starts, a template whose gateway responses hold one, instead of rendering it the way AWS
// never would.
import type { Template } from './template.ts';

export interface GatewayContext {
  requestId: string;
  resourcePath: string;
  httpMethod: string;
  path: string;
  errorMessage: string;
}

const DIRECTIVE =
  /#(?:\{)?(?:if|elseif|else|end|set|foreach|break|stop|macro|define|parse|include|evaluate)\b/;

const variable = (name: string, c: GatewayContext): string => {
  switch (name) {
    case 'context.requestId':
      return c.requestId;
    case 'context.resourcePath':
      return c.resourcePath;
    case 'context.httpMethod':
      return c.httpMethod;
    case 'context.path':
      return c.path;
    case 'context.error.messageString':
      return JSON.stringify(c.errorMessage);
    case 'context.error.message':
      return c.errorMessage;
    default:
      return ''; // other $context / $stageVariables values: none locally
  }
};

/** The directive a gateway response template holds, if any. */
export const directiveIn = (template: string): string | undefined => DIRECTIVE.exec(template)?.[0];

/** Simple substitution of $context.x / ${context.x} and $stageVariables.x, nothing else. */
export function renderTemplate(template: string, c: GatewayContext): string {
  const directive = directiveIn(template);
  if (directive)
    throw new Error(`gateway response template uses ${directive}, which API Gateway does not run`);
  return template.replace(
    /\$\{((?:context|stageVariables)(?:\.\w+)+)\}|\$((?:context|stageVariables)(?:\.[A-Za-z]\w*)+)/g,
    (_m, braced: string | undefined, bare: string | undefined) => variable(braced ?? bare!, c),
  );
}

/** A gateway response header value: 'static' or a context.* mapping expression. */
export const renderHeader = (value: string, c: GatewayContext): string =>
  /^'.*'$/.test(value) ? value.slice(1, -1) : variable(value, c);

/** Throws, naming API, response type and directive, when a gateway response template has a directive. */
export function assertGatewayResponsesRenderable(template: Template): void {
  for (const [apiId, res] of Object.entries(template.Resources)) {
    if (res.Type !== 'AWS::Serverless::Api') continue;
    for (const [type, gr] of Object.entries<any>(res.Properties?.GatewayResponses ?? {})) {
      for (const body of Object.values<string>(gr.ResponseTemplates ?? {})) {
        const directive = directiveIn(String(body));
        if (directive) {
          throw new Error(
            `${apiId} ${type}: gateway response templates get no VTL on API Gateway, only $context ` +
              `substitution; ${directive} would reach clients as text`,
          );
        }
      }
    }
  }
}
