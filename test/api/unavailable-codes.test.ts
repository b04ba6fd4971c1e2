// The two 503 codes mean different things and say so: `provider_unavailable` when the upstream AI
// providers of a chat completion are all down, `service_unavailable` when a dependency of the
// service itself is (here SMTP for an invitation and the OIDC identity provider for sign-in);
// the OpenAPI document names each with its meaning on the operations that answer it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

// Port 1 on loopback: nothing listens there, every connection is refused at once.
const CLOSED = 'http://127.0.0.1:1';

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unavailable-'));
  const gatewayConfig = path.join(dir, 'gateway.json');
  fs.writeFileSync(gatewayConfig, JSON.stringify({
    providers: [{ id: 'down', type: 'openai', baseUrl: `${CLOSED}/v1`, apiKey: 'sk-x', timeoutMs: 2000 }],
    models: [{ id: 'down-model', targets: [{ provider: 'down', upstreamModel: 'x' }], inputPricePer1M: 1, outputPricePer1M: 1, maxOutputTokens: 100 }],
    tiers: { standard: ['down-model'], premium: ['down-model'], enterprise: ['down-model'] },
  }));
  stack = await startStack({
    worker: false,
    env: { GATEWAY_CONFIG: gatewayConfig, SMTP_URL: 'smtp://127.0.0.1:1', OIDC_ISSUER: CLOSED, OIDC_CLIENT_ID: 'client' },
  });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
});

describe('503 codes', () => {
  it('answers provider_unavailable (upstream_error) when every upstream AI provider is down', async () => {
    const res = await call(stack.baseUrl, 'POST', '/chat/completions', { key: org.member.key, body: { model: 'standard', messages: [{ role: 'user', content: 'hi' }] } });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'provider_unavailable', type: 'upstream_error' });
  });

  it("answers service_unavailable (server_error) when the service's own mail server is down", async () => {
    const res = await call(stack.baseUrl, 'POST', '/users/invite', { key: org.admin.key, body: { email: `x-${Date.now()}@example.test` } });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'service_unavailable', type: 'server_error' });
  });

  it('answers service_unavailable when the OIDC identity provider is unreachable', async () => {
    const res = await call(stack.baseUrl, 'GET', '/auth/oidc/login', { redirect: 'manual' });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('service_unavailable');
  });

  it('documents each 503 code with its meaning, on the operations that answer it', async () => {
    const doc = (await call(stack.api.url, 'GET', '/v1/openapi.json')).body;
    const unavailable = (p: string, m: string): string => doc.paths[p][m].responses['503'].description;
    expect(unavailable('/v1/chat/completions', 'post')).toMatch(/`provider_unavailable` \(every configured upstream AI provider[^)]*\).*`service_unavailable` \(one of the service's own dependencies/);
    expect(unavailable('/v1/users/invite', 'post')).toContain('`service_unavailable`');
    expect(unavailable('/v1/auth/oidc/login', 'get')).toContain('`service_unavailable`');
    expect(unavailable('/v1/auth/oidc/login', 'get')).not.toContain('provider_unavailable');
    expect(doc.info.description).toContain('Two 503 codes mean different things');
  });
});
