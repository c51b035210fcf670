// What a reader of the docs page relies on in each OpenAPI document (infra/openapi/build.ts makes
// the builders declare it; this checks what they built): every operation has a unique operationId,
// a summary, a description and one tag the document describes; every operation says how it is
// authorized (public ones `security: []`); error examples carry the real codes of
// lib/http/errors.ts; and the builders' source keeps its lines readable.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/template.ts';
import { builders } from '../../infra/openapi/index.ts';
import { ERRORS } from '../../lib/http/errors.ts';
import { HACKMD_VALIDATION_MESSAGE } from '../../lib/notes/kernel/http/dialect.ts';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const CODES = new Map(Object.values(ERRORS).map((e) => [e.code, e.status]));

describe.each(Object.keys(builders))('openapi/%s.json', (name) => {
  const doc = builders[name]() as any;
  const operations = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ where: `${m.toUpperCase()} ${path}`, op: item[m] })),
  );

  it('is what the builder makes (npm run openapi)', () => {
    const committed = JSON.parse(readFileSync(join(ROOT, 'openapi', `${name}.json`), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('gives every operation a unique operationId, a summary, a description and one described tag', () => {
    const tags = new Map((doc.tags as { name: string; description: string }[]).map((t) => [t.name, t]));
    for (const { where, op } of operations) {
      expect(op.operationId, where).toMatch(/^[A-Za-z]+$/);
      expect(op.summary?.trim(), where).toBeTruthy();
      expect(op.description?.trim().length, where).toBeGreaterThan(20);
      expect(op.tags, where).toHaveLength(1);
      expect(tags.get(op.tags[0])?.description, where).toBeTruthy();
    }
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const used = new Set(operations.map((o) => o.op.tags[0]));
    expect([...tags.keys()].filter((t) => !used.has(t))).toEqual([]);
  });

  it('says how every operation is authorized', () => {
    for (const { where, op } of operations) {
      if (doc.security) expect(op.security ?? doc.security, where).toBeDefined();
      else expect(op.security, where).toEqual([]);
    }
  });

  it('never bounds an integer by ±MAX_SAFE_INTEGER (a safe-integer check converts to it; Swagger UI shows it as the example)', () => {
    expect(JSON.stringify(doc)).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('has only real error codes in its examples, each matching its status', () => {
    let seen = 0;
    for (const { where, op } of operations) {
      for (const [status, response] of Object.entries(op.responses) as [string, any][]) {
        const example = response.content?.['application/json']?.example;
        if (Number(status) < 400 || example?.code === undefined) continue;
        seen++;
        expect(CODES.get(example.code), `${where} ${status}`).toBe(Number(status));
        // The Notes dialect's 422 says "Validation Failed", as HackMD does (lib/notes/kernel/http/dialect.ts).
        const hackmd = name === 'notes' && example.code === ERRORS.validation_failed.code;
        expect(example.message, `${where} ${status}`).toBe(
          hackmd
            ? HACKMD_VALIDATION_MESSAGE
            : Object.values(ERRORS).find((e) => e.code === example.code)!.message,
        );
      }
    }
    if (doc.components?.schemas?.Error) expect(seen).toBeGreaterThan(operations.length);
  });
});

it('no line of infra/openapi/ is over 160 characters', () => {
  const dir = join(ROOT, 'infra', 'openapi');
  const long = readdirSync(dir).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .map((line, i) => ({ at: `${f}:${i + 1}`, length: line.length }))
      .filter((l) => l.length > 160),
  );
  expect(long).toEqual([]);
});
