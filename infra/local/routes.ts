// The template's routes as API Gateway matches them: static segments outrank parameters at the same
// position, a known path with no method of its own falls to ANY, and a path that matches nothing
// belongs to the API that shares most of its leading segments (for the dialect of its 404).
import type { Route } from './template.ts';

export interface CompiledRoute extends Route {
  regex: RegExp;
  params: string[];
  staticScore: number;
}

export type Match =
  | { kind: 'route'; route: CompiledRoute; pathParameters: Record<string, string> }
  | { kind: 'none'; apiId: string; resourcePath: string };

function compile(route: Route): CompiledRoute {
  const params: string[] = [];
  const segments = route.path.split('/').filter(Boolean);
  const pattern = segments
    .map((s) => {
      const m = /^\{(\w+)(\+?)\}$/.exec(s);
      if (!m) return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(m[1]);
      return m[2] ? '(.+)' : '([^/]+)';
    })
    .join('/');
  const staticScore = segments.reduce((score, s, i) => score + (s.startsWith('{') ? 0 : 2 ** (20 - i)), 0);
  return { ...route, regex: new RegExp(`^/${pattern}/?$`), params, staticScore };
}

export class Router {
  readonly routes: CompiledRoute[];
  readonly apiIds: string[];

  constructor(routes: Route[]) {
    this.routes = routes.map(compile);
    this.apiIds = [...new Set(this.routes.map((r) => r.apiId))];
  }

  /** `rawPath` is the still-encoded path; parameters are decoded (throws URIError when malformed). */
  match(method: string, rawPath: string): Match {
    const candidates = this.routes.filter((r) => r.regex.test(rawPath));
    if (candidates.length === 0) return { kind: 'none', apiId: this.apiOf(rawPath), resourcePath: '' };
    const best = Math.max(...candidates.map((r) => r.staticScore));
    const same = candidates.filter((r) => r.staticScore === best);
    const route = same.find((r) => r.method === method) ?? same.find((r) => r.method === 'ANY');
    if (!route) return { kind: 'none', apiId: same[0].apiId, resourcePath: same[0].path };
    const values = route.regex.exec(rawPath)!.slice(1);
    const pathParameters = Object.fromEntries(route.params.map((p, i) => [p, decodeURIComponent(values[i])]));
    return { kind: 'route', route, pathParameters };
  }

  /** The API a path belongs to: the one whose routes share the most leading segments with it. */
  apiOf(path: string): string {
    const segs = path.split('/').filter(Boolean);
    let best = this.apiIds[0];
    let bestLen = -1;
    for (const r of this.routes) {
      const rs = r.path.split('/').filter(Boolean);
      let n = 0;
      while (n < segs.length && n < rs.length && rs[n] === segs[n]) n += 1;
      if (n > bestLen) {
        best = r.apiId;
        bestLen = n;
      }
    }
    return best;
  }
}
