// NUL characters are refused at the edge (PostgreSQL cannot store them): 400 naming where.
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { rejectNulCharacters } from './body.js';

function run(req: Partial<Request>): AppError | undefined {
  let passed: unknown = 'not called';
  const next: NextFunction = (error?: unknown) => {
    passed = error;
  };
  rejectNulCharacters()({ path: '/v1/skills', query: {}, body: undefined, ...req } as Request, {} as Response, next);
  expect(passed).not.toBe('not called');
  return passed as AppError | undefined;
}

describe('rejectNulCharacters', () => {
  it('passes bodies, queries and paths without NUL', () => {
    expect(run({ body: { name: 'ok', messages: [{ content: 'a\u0001b' }] }, query: { limit: '5' } })).toBeUndefined();
    expect(run({ body: 'plain string' })).toBeUndefined();
  });

  it('names the body field holding a NUL, arrays included', () => {
    const error = run({ body: { messages: [{ role: 'user' }, { role: 'user', content: 'a\u0000b' }] } });
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'bad_request', status: 400, param: 'messages[1].content' });
    expect(error!.message).toContain('must not contain NUL');
  });

  it('names a key holding a NUL, and the body itself when it is the string', () => {
    expect(run({ body: { env: { 'A\u0000': 'x' } } })).toMatchObject({ param: 'env.A\\u0000' });
    expect(run({ body: '\u0000' })).toMatchObject({ param: 'body' });
  });

  it('names the query parameter, and refuses %00 in the path', () => {
    expect(run({ query: { status: ['ok', 'x\u0000'] } as unknown as Request['query'] })).toMatchObject({ param: 'status[1]' });
    expect(run({ path: '/v1/webhooks/executions/wex_%00' })).toMatchObject({ code: 'bad_request', param: 'path' });
  });
});
