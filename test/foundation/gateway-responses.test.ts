// When a function cannot run, API Gateway answers with the API's gateway responses, and renders
// them only by substituting $context variables (no VTL). The runner renders them by the same rules
// and refuses a template that would need more. The News status route keeps its own offline body
// because it sits behind its own API (NewsStatusApi, proxied by NewsApi at the same path).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runner } from '../../infra/local/runner.ts';
import { listRoutes, loadTemplate, type Template } from '../../infra/local/template.ts';
import { renderTemplate } from '../../infra/local/vtl.ts';
import { startOwnRunner } from '../support/runner.ts';

// The real News APIs (with their gateway responses) and two News functions whose code is missing.
const real = loadTemplate();
const broken = (id: string) => ({
  ...real.Resources[id],
  Metadata: {
    ...real.Resources[id].Metadata,
    BuildProperties: { EntryPoints: ['functions/news/missing-on-purpose.ts'] },
  },
});
const template: Template = {
  ...real,
  Resources: {
    NewsApi: real.Resources.NewsApi,
    NewsStatusApi: real.Resources.NewsStatusApi,
    NewsGetStatusFunction: broken('NewsGetStatusFunction'),
    NewsListNewsFunction: broken('NewsListNewsFunction'),
  },
};
const start = (t: Template) => startOwnRunner({ template: t });

let runner: Runner;
beforeAll(async () => {
  runner = await start(template);
});
afterAll(() => runner.close());

describe('News API while its functions cannot run', () => {
  it('the status endpoint answers 503 with the offline status body', async () => {
    const res = await fetch(`${runner.url}/api/v1/status/web-api`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.json()).toEqual({
      error: true,
      response: { vg: false, uptime: -1, errorsCount: -1, requestsServed: -1 },
    });
  });

  it('another route answers with the internalError envelope', async () => {
    const res = await fetch(`${runner.url}/api/v1/news`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: true, response: 'internalError' });
  });

  it('the status route is reached through NewsApi, which proxies every method to NewsStatusApi', () => {
    const status = listRoutes(real).find((r) => r.functionId === 'NewsGetStatusFunction')!;
    expect(status).toMatchObject({ apiId: 'NewsApi', gatewayApiId: 'NewsStatusApi', method: 'GET' });
    const proxy =
      real.Resources.NewsApi.Properties!.DefinitionBody.paths[status.path]['x-amazon-apigateway-any-method'][
        'x-amazon-apigateway-integration'
      ];
    expect(proxy).toMatchObject({ type: 'http_proxy', httpMethod: 'ANY' });
    expect(proxy.uri['Fn::Sub']).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation !Sub string
      'https://${NewsStatusApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/${StageName}/api/v1/status/web-api',
    );
  });
});

describe('gateway response rendering (API Gateway rules)', () => {
  const ctx = {
    requestId: 'r-1',
    resourcePath: '/v1/x',
    httpMethod: 'GET',
    path: '/v1/x',
    errorMessage: 'Bad "input"',
  };

  it('substitutes $context variables and nothing else', () => {
    expect(
      renderTemplate(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: API Gateway's ${context.x} form
        '{"id":"$context.requestId","m":$context.error.messageString,"p":"${context.path}"}',
        ctx,
      ),
    ).toBe('{"id":"r-1","m":"Bad \\"input\\"","p":"/v1/x"}');
    expect(renderTemplate('{"stage":"$stageVariables.color"}', ctx)).toBe('{"stage":""}');
  });

  it('the runner refuses, at start, a gateway response template with a VTL directive', async () => {
    for (const directive of [
      '#if($context.path == "/x")a#else b#end',
      '#set($a = 1)$a',
      '#foreach($h in [1])x#end',
    ]) {
      const withDirective = structuredClone(template);
      withDirective.Resources.NewsApi.Properties!.GatewayResponses.DEFAULT_5XX.ResponseTemplates[
        'application/json'
      ] = directive;
      await expect(start(withDirective)).rejects.toThrow(/NewsApi DEFAULT_5XX: .*no VTL/);
    }
  });

  it('every gateway response template of template.yaml renders (no directive anywhere)', () => {
    for (const [id, res] of Object.entries(real.Resources)) {
      for (const [type, gr] of Object.entries<any>(res.Properties?.GatewayResponses ?? {})) {
        const body = gr.ResponseTemplates['application/json'];
        expect(() => JSON.parse(renderTemplate(body, ctx)), `${id} ${type}`).not.toThrow();
      }
    }
  });
});
