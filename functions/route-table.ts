// The row of an API's route table (functions/<api>/routes.ts): one row per HTTP operation, the one
// place an operation is declared. `npm run deploy:sync` writes each routed function's whole block in
// template.yaml from its rows (infra/deploy/sync.ts, syncRoutes; build properties, policies and log
// group are added by the same command), and the OpenAPI builders (infra/openapi, document()) take each
// operation's operationId, summary and tags from its row; test/unit/deploy/route-tables.test.ts checks
// the rows against the template's routes and the generated documents. Nothing here is bundled.

/** The methods an operation is routed on (the 405 fallback answers the others). */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A value of a function's environment variable: a template parameter (or resource) by Ref, or a literal. */
export type EnvValue = { readonly Ref: string } | string;

export interface RouteRow {
  /** The function's logical id in template.yaml, e.g. NotesGetMeFunction. */
  readonly id: string;
  readonly method: RouteMethod;
  /** API Gateway resource path, e.g. /v1/notes/{noteId}. */
  readonly path: string;
  /** The handler's file from the repository root (it exports `handler`): the function's EntryPoints. */
  readonly handler: string;
  /** The operation in the API's OpenAPI document (openapi/<api>.json): its operationId, summary and tags, written only here. */
  readonly operationId: string;
  readonly summary: string;
  readonly tags: readonly string[];
  // Extras, only where the function differs from the Globals of template.yaml:
  /** The API the route is on when it is not the table's (the News status route: NewsStatusApi). */
  readonly api?: string;
  /** The name of the Api event (default `Api`): its permission's logical id is made from it. */
  readonly event?: string;
  /** Seconds (Globals: 10). */
  readonly timeout?: number;
  /** MB (Globals: 512). */
  readonly memorySize?: number;
  /** Environment variables beside the Globals' ones. */
  readonly env?: Readonly<Record<string, EnvValue>>;
}

/**
 * An API's routes: the API (its AWS::Serverless::Api logical id), its OpenAPI document and its rows,
 * in template order. Several rows may name one function (one function serving several routes, e.g.
 * the note pages): the first row gives the function's extras, every row an event.
 */
export interface RouteTable {
  /** The API's name in the generated block's markers, e.g. Notes. */
  readonly name: string;
  /** The table's file, from the repository root. */
  readonly file: string;
  /** The API the rows are on (a row's `api` overrides it). */
  readonly api: string;
  /** The API's OpenAPI document, from the repository root. */
  readonly openapi: string;
  readonly rows: readonly RouteRow[];
}
