// Dependency rules of docs/architecture.md, checked by `npm run lint` (depcruise). Type-only imports
// count too: a domain module may not even name an HTTP or SDK type.
const API = '(identity|notes|news|bank)';
/**
 * The Notes features, one folder each (docs/architecture.md, "Layout"): the kernel every feature
 * shares (the note's model and ports, authentication and rate limit, presenters, the table items
 * every feature reads), and the features beside it.
 */
const FEATURE = '(kernel|notes|folders|trash|revisions|webhooks|images|pages|search|live)';
/** The domain of an API or of a Notes feature: its top-level modules, but not its wiring or HTTP. */
const DOMAIN = [
  `^lib/${API}/(?!wiring\\.ts$)[^/]+\\.ts$`,
  // (search/embedded.ts is wiring: it hands the bundled functions' SQLite binary to the engine)
  `^lib/notes/${FEATURE}/(?!(wiring|http|embedded)\\.ts$)[^/]+\\.ts$`,
  '^lib/notes/webhooks/events/(?!wiring\\.ts$)[^/]+\\.ts$',
];
/** Where adapters are chosen: an API's wiring, and its Notes features' (pages, search, the event pipeline). */
const WIRING = [
  `^lib/${API}/wiring\\.ts$`,
  `^lib/notes/${FEATURE}/wiring\\.ts$`,
  '^lib/notes/webhooks/events/wiring\\.ts$',
  // The bundled search functions' SQLite binary (lib/notes/search/embedded.ts).
  '^lib/notes/search/embedded\\.ts$',
];
/** Adapters: an API's, and each Notes feature's. */
const ADAPTERS = [`^lib/${API}/adapters/`, `^lib/notes/${FEATURE}/adapters/`];
/** HTTP glue: an API's, a Notes feature's (a folder, or one module beside its domain). */
const HTTP = [`^lib/${API}/http/`, `^lib/notes/${FEATURE}/http(/|\\.ts$)`];

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
      from: { path: [...DOMAIN, '^lib/domain/'] },
      to: {
        path: [
          '^lib/http/',
          ...ADAPTERS,
          ...HTTP,
          ...WIRING,
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
      from: { path: '^(lib|functions)/', pathNot: [...WIRING, ...ADAPTERS] },
      to: { path: ADAPTERS },
    },
    {
      name: 'features-share-only-the-kernel-adapters',
      severity: 'error',
      comment:
        "A Notes feature's adapters use their own feature's adapters and the kernel's, never another " +
        "feature's: what two features share lives in lib/notes/kernel.",
      from: { path: '^lib/notes/([^/]+)/adapters/' },
      to: {
        path: '^lib/notes/[^/]+/adapters/',
        pathNot: ['^lib/notes/$1/adapters/', '^lib/notes/kernel/adapters/'],
      },
    },
    {
      name: 'kernel-knows-no-feature',
      severity: 'error',
      comment:
        'The Notes kernel is what every feature builds on: it imports no feature (lib/notes/<feature>/: ' +
        'its domain, schemas, HTTP or adapters) and no wiring; a feature provides what the kernel ' +
        'needs, or the piece lives in the feature.',
      from: { path: '^lib/notes/kernel/' },
      to: { path: ['^lib/notes/(?!kernel/)[^/]+/', '^lib/notes/wiring\\.ts$'] },
    },
    {
      name: 'features-never-import-the-root',
      severity: 'error',
      comment:
        'Each Notes feature wires itself (lib/notes/<feature>/wiring.ts); lib/notes/wiring.ts only joins ' +
        'features, so no module of a feature (its wiring included) imports it: the root imports them.',
      from: { path: '^lib/notes/[^/]+/' },
      to: { path: '^lib/notes/wiring\\.ts$' },
    },
    {
      name: 'adapters-know-no-http-or-wiring',
      severity: 'error',
      from: { path: ADAPTERS },
      to: { path: ['^lib/http/', ...HTTP, ...WIRING] },
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
