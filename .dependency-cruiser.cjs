// Dependency rules of docs/architecture.md, checked by `npm run lint` (depcruise). Type-only imports
// count too: a domain module may not even name an HTTP or SDK type.
const API = '(identity|notes|news|bank)';
/** The domain of an API: its top-level modules, but not its wiring. */
const DOMAIN = `^lib/${API}/(?!wiring\\.ts$)[^/]+\\.ts$`;
/** Where adapters are chosen: an API's wiring, and its feature folders' (lib/notes/{events,pages,search}/wiring.ts). */
const WIRING = `^lib/${API}/((events|pages|search)/)?wiring\\.ts$`;
/** Adapters: an API's, and those of its feature folders with their own ports (lib/notes/{pages,search}/adapters). */
const ADAPTERS = `^lib/${API}/((pages|search)/)?adapters/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere (functions, lib, infra, test).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'http-knows-no-api',
      severity: 'error',
      comment: 'lib/http is given authentication and counters; it imports no API (docs/architecture.md).',
      from: { path: '^lib/http/' },
      to: { path: `^lib/${API}/` },
    },
    {
      name: 'domain-without-http-or-adapters',
      severity: 'error',
      comment: 'The domain imports no lib/http, no adapter, no AWS SDK, no middy, no SDK client module.',
      from: { path: [DOMAIN, '^lib/domain/'] },
      to: {
        path: [
          '^lib/http/',
          `^lib/${API}/adapters/`,
          `^lib/${API}/http/`,
          `^lib/${API}/wiring\\.ts$`,
          '^lib/data/(dynamo|s3|sns|ses|secrets|failures|metering)\\.ts$',
          '(^|/)node_modules/@aws-sdk/',
          '(^|/)node_modules/@middy/',
          '(^|/)node_modules/@aws-lambda-powertools/',
        ],
      },
    },
    {
      name: 'only-wiring-imports-adapters',
      severity: 'error',
      comment:
        'Adapters are chosen in one module per API (lib/<api>/wiring.ts); tests and infra may use them.',
      from: { path: '^(lib|functions)/', pathNot: [WIRING, ADAPTERS] },
      to: { path: ADAPTERS },
    },
    {
      name: 'adapters-know-no-http-or-wiring',
      severity: 'error',
      from: { path: ADAPTERS },
      to: { path: ['^lib/http/', `^lib/${API}/http/`, WIRING] },
    },
    {
      name: 'functions-reach-the-domain-through-wiring',
      severity: 'error',
      comment: 'A handler uses lib/http, its API (wiring, schemas, HTTP glue, model), never the data layer.',
      from: { path: '^functions/' },
      to: { path: ['^lib/data/', '(^|/)node_modules/@aws-sdk/'] },
    },
    {
      name: 'lib-stands-alone',
      severity: 'error',
      comment: 'lib/ is what the functions bundle: it never imports functions/, infra/ or test/.',
      from: { path: '^lib/' },
      to: { path: '^(functions|infra|test)/' },
    },
    {
      name: 'data-knows-no-api',
      severity: 'error',
      comment: 'lib/data is plumbing shared by adapters: it imports no API.',
      from: { path: '^lib/data/' },
      to: { path: `^lib/${API}/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)(node_modules|\\.local|openapi|coverage)/', '^test/fixtures/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
