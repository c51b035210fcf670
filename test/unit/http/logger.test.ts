// lib/http/logger.ts: one JSON line per record outside Lambda, console records inside Lambda's JSON
// log format (the runtime adds timestamp, level and requestId), and levels below the threshold dropped.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../../lib/http/logger.ts';

const ENV = ['AWS_LAMBDA_LOG_FORMAT', 'AWS_LAMBDA_LOG_LEVEL', 'LOG_LEVEL'] as const;
let saved: Record<string, string | undefined>;
let lines: string[];

beforeEach(() => {
  saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  for (const k of ENV) delete process.env[k];
  lines = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string) => {
    lines.push(chunk);
    return true;
  }) as typeof process.stdout.write);
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const k of ENV)
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
});

describe('logger outside Lambda', () => {
  it('writes one JSON line with timestamp, level, message and fields', () => {
    logger.warn('security event', { userId: 'u1', requestId: 'r1' });
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('\n')).toBe(true);
    const record = JSON.parse(lines[0]);
    expect(record).toMatchObject({ level: 'WARN', message: 'security event', userId: 'u1', requestId: 'r1' });
    expect(Date.parse(record.timestamp)).not.toBeNaN();
  });

  it('writes an Error as type, message and stack, as Lambda does', () => {
    logger.error('unhandled error', { error: new TypeError('boom') });
    const { error } = JSON.parse(lines[0]);
    expect(error.errorType).toBe('TypeError');
    expect(error.errorMessage).toBe('boom');
    expect(error.stackTrace[0]).toBe('TypeError: boom');
  });

  it('drops records below the level (INFO unless LOG_LEVEL says otherwise)', () => {
    logger.debug('hidden');
    logger.info('shown');
    process.env.LOG_LEVEL = 'error';
    logger.warn('hidden too');
    logger.error('shown too');
    expect(lines.map((l) => JSON.parse(l).message)).toEqual(['shown', 'shown too']);
  });
});

describe("logger in Lambda's JSON log format", () => {
  it('hands the record to console, for the runtime to format, at Lambda’s level', () => {
    process.env.AWS_LAMBDA_LOG_FORMAT = 'JSON';
    process.env.AWS_LAMBDA_LOG_LEVEL = 'WARN';
    process.env.LOG_LEVEL = 'DEBUG'; // Lambda's own level wins
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    logger.info('dropped');
    logger.warn('kept', { status: 503 });
    expect(info).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith({ message: 'kept', status: 503 });
    expect(lines).toEqual([]);
  });
});
