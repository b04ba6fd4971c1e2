// No plaintext credential at rest or in the logs. One scenario makes every kind the API hands
// out or receives: API keys of several users (made directly and through the API, used, one
// revoked), a guessed key, password sign-ins (with rotation and a wrong password), an invitation
// delivered by a real SMTP listener and accepted (its token, password and session), a logout,
// and a webhook URL id. Then every row of every table of the database, every key and value
// under the stack's Redis prefix and every log line the stack wrote are searched for each raw
// secret and its hex and base64 forms. Positive controls show the dump does hold what the
// secrets are stored as (their SHA-256, argon2id hashes), so the search looks where they are.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../src/identity/api-keys.js';
import { hashSessionToken } from '../../src/identity/sessions.js';
import { startSmtpListener, type SmtpListener } from '../fixtures/smtp.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization, type TestOrganization } from '../helpers/orgs.js';
import { dumpDatabase, dumpRedis, encodingsOf } from '../helpers/secrets-dump.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { cookieValue, createPasswordUser, invitationTokenOf } from './helpers.js';

let stack: Stack;
let smtp: SmtpListener;
let org: TestOrganization;

beforeAll(async () => {
  smtp = await startSmtpListener();
  stack = await startStack({ worker: false, env: { SMTP_URL: smtp.url, LOG_LEVEL: 'debug' } });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
  await smtp?.stop();
});

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const withSession = (token: string) => ({ headers: { cookie: `svc_session=${token}` } });

async function signIn(email: string, password: string, previous?: string): Promise<string> {
  const res = await call(stack.baseUrl, 'POST', '/auth/login', { body: { email, password }, ...(previous ? withSession(previous) : {}) });
  expect(res.status, res.text).toBe(200);
  return cookieValue(res.headers, 'svc_session')!;
}

describe('secrets at rest and in the logs', () => {
  it('stores and logs no API key, session token, invitation token, password or webhook URL id in the clear', async () => {
    const secrets = new Map<string, string>();
    /** What the database holds instead of each secret: the positive controls. */
    const storedAs: string[] = [];

    // API keys: one per role made directly, one per role through the API; all used; one revoked.
    for (const user of [org.owner, org.admin, org.member]) {
      secrets.set(`${user.role}'s key`, user.key);
      const created = await call(stack.baseUrl, 'POST', '/api-keys', { key: user.key, body: { name: `${user.role} laptop` } });
      expect(created.status).toBe(201);
      secrets.set(`${user.role}'s API-made key`, created.body.key);
      expect((await call(stack.baseUrl, 'GET', '/users/me', { key: created.body.key })).status).toBe(200);
      storedAs.push(hashApiKey(user.key), hashApiKey(created.body.key));
    }
    const listed = await call(stack.baseUrl, 'GET', '/api-keys', { key: org.admin.key });
    const revoked = listed.body.apiKeys.find((key: { userId: string; name: string }) => key.userId === org.member.id && key.name === 'member laptop');
    expect((await call(stack.baseUrl, 'DELETE', `/api-keys/${revoked.id}`, { key: org.admin.key })).status).toBe(204);
    const guessed = generateApiKey();
    secrets.set('a guessed key', guessed);
    expect((await call(stack.baseUrl, 'GET', '/users/me', { key: guessed })).status).toBe(401);

    // Password sign-in, again with the first session (rotated), and a wrong password.
    const local = await createPasswordUser(stack.runtime.orm, org.id);
    secrets.set('a password', local.password);
    const firstSession = await signIn(local.email, local.password);
    const rotated = await signIn(local.email, local.password, firstSession);
    secrets.set('a session token', firstSession).set('a rotated session token', rotated);
    expect((await call(stack.baseUrl, 'GET', '/users/me', withSession(rotated))).status).toBe(200);
    const wrongPassword = `${local.password}-wrong`;
    secrets.set('a wrong password', wrongPassword);
    expect((await call(stack.baseUrl, 'POST', '/auth/login', { body: { email: local.email, password: wrongPassword } })).status).toBe(401);
    storedAs.push(hashSessionToken(rotated));

    // An invitation, delivered by SMTP and accepted: the token, the new password, the session.
    const email = `invitee-${Date.now()}@example.test`;
    expect((await call(stack.baseUrl, 'POST', '/users/invite', { key: org.admin.key, body: { email } })).status).toBe(201);
    const mail = await waitFor(async () => smtp.messages.find((m) => m.to.includes(email)), { what: 'invitation email' });
    const invitation = invitationTokenOf(mail.raw)!;
    const inviteePassword = 'the invitee chose this passphrase';
    secrets.set('an invitation token', invitation).set("the invitee's password", inviteePassword);
    const accepted = await call(stack.baseUrl, 'POST', '/auth/invitations/accept', { body: { token: invitation, name: 'Invitee', password: inviteePassword } });
    expect(accepted.status, accepted.text).toBe(200);
    const inviteeSession = cookieValue(accepted.headers, 'svc_session')!;
    secrets.set("the invitee's session token", inviteeSession);
    expect((await call(stack.baseUrl, 'GET', '/users/me', withSession(inviteeSession))).status).toBe(200);
    expect((await call(stack.baseUrl, 'POST', '/auth/logout', withSession(inviteeSession))).status).toBe(204);
    storedAs.push(sha256(invitation));

    // A webhook URL id (the URL is the credential): posted to, and an unknown one tried.
    const assistant = await call(stack.baseUrl, 'POST', '/assistants', { key: org.member.key, body: { name: 'Hook', systemPrompt: 'Echo.', trigger: { type: 'webhook' } } });
    expect(assistant.status, assistant.text).toBe(201);
    const webhookId = String(assistant.body.webhookUrl).split('/').pop()!;
    secrets.set('a webhook URL id', webhookId);
    expect((await call(stack.baseUrl, 'POST', `/webhooks/${webhookId}`, { body: { event: 'x' } })).status).toBe(202);
    const unknownWebhook = `wh_${'Z'.repeat(32)}`; // well-formed, so it is looked up (a malformed id is 400)
    secrets.set('an unknown webhook URL id', unknownWebhook);
    expect((await call(stack.baseUrl, 'POST', `/webhooks/${unknownWebhook}`, { body: { event: 'x' } })).status).toBe(404);

    const database = await dumpDatabase(stack.runtime.orm);
    const redis = await dumpRedis(stack.runtime.shared);
    const logs = stack.logs.join('');

    // The search looks where the secrets would be.
    expect([...database.keys()]).toEqual(expect.arrayContaining(['api_keys', 'sessions', 'invitations', 'users', 'audit_logs', 'webhooks']));
    const everyRow = [...database.values()].join('\n');
    for (const hash of storedAs) expect(everyRow, 'the dump holds the hash the secret is stored as').toContain(hash);
    expect(database.get('users')).toMatch(/\$argon2id\$/);
    expect(logs.match(/"msg":"request"/g)?.length ?? 0, 'access log lines').toBeGreaterThan(15);
    if (stack.runtime.shared.kind === 'redis') expect(redis, 'rate-limit counters in Redis').toBeTruthy();

    const found: string[] = [];
    for (const [what, secret] of secrets) {
      for (const form of encodingsOf(secret)) {
        for (const [table, rows] of database) if (rows.includes(form)) found.push(`${what} in table ${table}`);
        if (redis?.includes(form)) found.push(`${what} in Redis`);
        if (logs.includes(form)) found.push(`${what} in the logs`);
      }
    }
    expect(secrets.size).toBe(16);
    expect(found).toEqual([]);
  });
});
