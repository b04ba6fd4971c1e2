// Where the invitation link goes. Without SMTP_URL (development) the message is written to
// DATA_DIR/outbox and its accept link logged, so a developer can follow it from the terminal;
// with SMTP_URL the message goes to the relay and neither the link nor its token is logged.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpListener, type SmtpListener } from '../fixtures/smtp.js';
import { call, waitFor } from '../helpers/http.js';
import { createTestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

const INVITATION_URL = 'https://portal.example.test/invitations/accept';

/** The accept link in a raw message, quoted-printable soft breaks and `=3D` undone. */
function acceptLink(raw: string): string | undefined {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return /https:\/\/portal\.example\.test\/invitations\/accept\?token=[A-Za-z0-9_-]+/.exec(text)?.[0];
}

describe('without SMTP_URL', () => {
  let dataDir: string;
  let stack: Stack;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'invitation-outbox-'));
    stack = await startStack({ worker: false, env: { DATA_DIR: dataDir, SMTP_URL: undefined, INVITATION_URL } });
  });
  afterAll(async () => {
    await stack?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes the invitation to DATA_DIR/outbox and logs its accept link', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const email = `outbox-${Date.now()}@example.test`;
    expect((await call(stack.baseUrl, 'POST', '/users/invite', { key: org.admin.key, body: { email } })).status).toBe(201);

    const outbox = path.join(dataDir, 'outbox');
    const files = fs.readdirSync(outbox).filter((name) => name.endsWith('.eml'));
    const message = files.map((name) => fs.readFileSync(path.join(outbox, name), 'utf8')).find((raw) => raw.includes(email));
    expect(message).toBeDefined();
    const link = acceptLink(message!);
    expect(link).toBeDefined();

    const logged = stack.logs.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'SMTP_URL not set: email written to the outbox');
    expect(logged).toMatchObject({ link, file: expect.stringContaining(outbox) });
  });
});

describe('with SMTP_URL', () => {
  let smtp: SmtpListener;
  let stack: Stack;

  beforeAll(async () => {
    smtp = await startSmtpListener();
    stack = await startStack({ worker: false, env: { SMTP_URL: smtp.url, INVITATION_URL } });
  });
  afterAll(async () => {
    await stack?.stop();
    await smtp?.stop();
  });

  it('sends the link through SMTP and never logs it or its token', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const email = `relay-${Date.now()}@example.test`;
    expect((await call(stack.baseUrl, 'POST', '/users/invite', { key: org.admin.key, body: { email } })).status).toBe(201);

    const mail = await waitFor(async () => smtp.messages.find((m) => m.to.includes(email)), { what: 'invitation email' });
    const link = acceptLink(mail.raw);
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get('token')!;
    expect(token.length).toBeGreaterThanOrEqual(43);
    const logs = stack.logs.join('');
    expect(logs).toContain('POST'); // the request itself was logged: the logs are not just empty
    expect(logs).not.toContain(token);
  });
});
