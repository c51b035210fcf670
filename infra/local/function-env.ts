// Lambda gives every function its own environment; the runner runs them all in one process. This
// scopes each invocation's own variables (the literal values of the function's
// Environment.Variables in template.yaml) with AsyncLocalStorage behind process.env, so
// concurrent invocations of different functions each see their own values.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Template } from './template.ts';

const storage = new AsyncLocalStorage<Record<string, string>>();
let installed = false;

export function installScopedEnv(): void {
  if (installed) return;
  installed = true;
  const base = process.env;
  process.env = new Proxy(base, {
    get: (target, key) =>
      typeof key === 'string' && storage.getStore()?.[key] !== undefined
        ? storage.getStore()![key]
        : Reflect.get(target, key),
    set: (target, key, value) => {
      (target as Record<string | symbol, unknown>)[key] = value;
      return true;
    },
    has: (target, key) =>
      (typeof key === 'string' && storage.getStore()?.[key] !== undefined) || Reflect.has(target, key),
  });
}

export const withFunctionEnv = <T>(vars: Record<string, string>, fn: () => T): T => storage.run(vars, fn);

/** The literal (non-intrinsic) variables a function declares in the template. */
export function literalFunctionEnv(template: Template): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const [id, res] of Object.entries(template.Resources)) {
    if (res.Type !== 'AWS::Serverless::Function') continue;
    const vars = res.Properties?.Environment?.Variables ?? {};
    out.set(
      id,
      Object.fromEntries(
        Object.entries(vars)
          .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
          .map(([k, v]) => [k, String(v)]),
      ),
    );
  }
  return out;
}
