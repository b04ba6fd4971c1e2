// TRUST_PROXY: X-Forwarded-For is believed only from the listed proxies. A client
// that talks to the API directly cannot pick its own address to dodge per-IP limits by sending
// a different X-Forwarded-For each time; behind a listed proxy the forwarded address counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { startStack, type Stack } from '../helpers/stack.js';

let untrusted: Stack;
let trusted: Stack;

beforeAll(async () => {
  // The test client connects from 127.0.0.1: listed in one stack, not in the other.
  untrusted = await startStack({ worker: false, env: { TRUST_PROXY: '10.0.0.0/8, 192.0.2.7', RATE_LIMIT_SIGN_IN_PER_MINUTE: '3' } });
  trusted = await startStack({ worker: false, env: { TRUST_PROXY: '127.0.0.1,::1,::ffff:127.0.0.1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '3' } });
});
afterAll(async () => {
  await untrusted?.stop();
  await trusted?.stop();
});

const signIn = (stack: Stack, forwardedFor: string) =>
  call(stack.baseUrl, 'POST', '/auth/login', {
    body: { email: 'nobody@example.test', password: 'wrong password' },
    headers: { 'x-forwarded-for': forwardedFor },
  });

describe('TRUST_PROXY', () => {
  it('ignores X-Forwarded-For from a peer that is not a listed proxy: a new spoofed address each time is still one client', async () => {
    const statuses = [];
    for (let i = 1; i <= 4; i += 1) statuses.push((await signIn(untrusted, `203.0.113.${i}`)).status);
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
  });

  it('believes X-Forwarded-For from a listed proxy: each forwarded client has its own limit', async () => {
    for (let i = 1; i <= 4; i += 1) expect((await signIn(trusted, `198.51.100.${i}`)).status).not.toBe(429);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await signIn(trusted, '198.51.100.200')).status);
    expect(statuses[3]).toBe(429);
  });

  it('refuses a boolean or a malformed entry at start-up', async () => {
    const { loadConfig } = await import('../../src/config.js');
    expect(() => loadConfig({ TRUST_PROXY: 'true' } as NodeJS.ProcessEnv)).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' } as NodeJS.ProcessEnv)).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,::1' } as NodeJS.ProcessEnv).TRUST_PROXY).toEqual(['10.0.0.0/8', '::1']);
  });
});
