// The error middleware maps the router's failures to OpenAI-shaped 4xx bodies, not 500s.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from './errors.js';

let server: ReturnType<ReturnType<typeof express>['listen']>;
let base: string;

beforeAll(async () => {
  const app = express();
  app.get('/items/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  app.post('/items', express.json(), (req, res) => {
    res.json(req.body);
  });
  app.use(errorHandler(1024));
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('errorHandler', () => {
  it('answers 400 bad_request naming the path for a malformed percent-encoded path parameter', async () => {
    for (const id of ['%E0%A4%A', '%ZZ', '%']) {
      const response = await fetch(`${base}/items/${id}`);
      expect(response.status, id).toBe(400);
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(body.error).toMatchObject({ code: 'bad_request', type: 'invalid_request_error', param: 'path' });
      expect(String(body.error.message)).not.toContain(id);
    }
  });

  it('still decodes well-formed parameters', async () => {
    const response = await fetch(`${base}/items/a%20b`);
    expect(await response.json()).toEqual({ id: 'a b' });
  });

  it('answers 400 bad_request for a body that does not inflate as its Content-Encoding claims', async () => {
    for (const encoding of ['gzip', 'deflate']) {
      const response = await fetch(`${base}/items`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body: '{"a":1}' });
      expect(response.status, encoding).toBe(400);
      expect(((await response.json()) as { error: unknown }).error).toMatchObject({ code: 'bad_request', param: 'body' });
    }
  });
});
