// The small part of API Gateway's mapping-template language that template.yaml's gateway
// responses use: $context variables and #if(... == "...")...#else...#end.
export interface GatewayContext {
  requestId: string;
  resourcePath: string;
  httpMethod: string;
  path: string;
  errorMessage: string;
}

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
      return '';
  }
};

export function renderTemplate(template: string, c: GatewayContext): string {
  const withIfs = template.replace(
    /#if\(\$([\w.]+)\s*==\s*"([^"]*)"\)([\s\S]*?)(?:#else([\s\S]*?))?#end/g,
    (_m, name: string, value: string, then: string, otherwise = '') =>
      variable(name, c) === value ? then : otherwise,
  );
  return withIfs.replace(/\$([a-zA-Z][\w.]*)/g, (_m, name: string) => variable(name, c));
}

/** A gateway response header value: 'static' or a context.* mapping expression. */
export const renderHeader = (value: string, c: GatewayContext): string =>
  /^'.*'$/.test(value) ? value.slice(1, -1) : variable(value, c);
