// Lambda gives every function its own environment, and so does the runner (a worker thread per
// environment, environments.ts): its process.env is the runner's (the stack's endpoints, table and
// bucket names) with the function's own variables over it, the literal values of its
// Environment.Variables in template.yaml.
import type { Template } from './template.ts';

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
