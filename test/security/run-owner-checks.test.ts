// Attacker's tests for SECURITY.md's second round (trust), finding 8: work a run already decided on (a tool call the model
// chose, a delivery to a channel) must still act only for an owner who is active, and only with
// that owner's connection. The activities are called directly, as the worker would call them
// after the owner was disabled between the model's answer and the call.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelMessage, ChannelTarget } from '../../src/channels/index.js';
import { callToolWithDlp } from '../../src/connectors/tool-use.js';
import { deliverToChannel } from '../../src/assistants/assistant-run.js';
import { recordRunningExecution } from '../helpers/executions.js';
import { call } from '../helpers/http.js';
import { createTestOrganization, createTestUser, type TestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;
let org: TestOrganization;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  org = await createTestOrganization(stack.runtime.orm);
});
afterAll(async () => {
  await stack?.stop();
});

const api = (key: string, method: string, path: string, body?: unknown) => call(stack.baseUrl, method, path, { key, body });
const asFailure = (error: unknown) => error;

describe('tool calls and deliveries a run already chose', () => {
  it("refuses a tool call once the connection's owner is disabled, and a connection that is not the run owner's", async () => {
    const owner = await createTestUser(stack.runtime.orm, org.id, 'member');
    const connection = await api(owner.key, 'POST', '/tools/connections', { toolId: 'time', name: 'Clock' });
    expect(connection.status, connection.text).toBe(201);
    const binding = { connectionId: connection.body.id, toolId: 'time', toolName: 'get_current_time' };
    const source = { type: 'run' as const, id: randomUUID() };

    // Another user's run holding this connection's binding: not their connection.
    const stranger = await callToolWithDlp(stack.runtime, { organizationId: org.id, userId: org.member.id, binding, arguments: '{}', source }, asFailure);
    expect(stranger).toMatchObject({ isError: true, text: expect.stringContaining('no longer exists') });

    expect((await api(org.admin.key, 'PUT', `/users/${owner.id}/status`, { status: 'disabled' })).status).toBe(200);
    const refused = await callToolWithDlp(stack.runtime, { organizationId: org.id, userId: owner.id, binding, arguments: '{}', source }, asFailure).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    expect(refused).toMatchObject({ error: { code: 'forbidden' } });
  });

  it("does not deliver an assistant's answer to its channels once its owner is disabled", async () => {
    const owner = await createTestUser(stack.runtime.orm, org.id, 'member');
    const assistant = await api(owner.key, 'POST', '/assistants', { name: 'Notifier', systemPrompt: 'hi', channels: [{ type: 'slack', target: '#general', token: 'xoxb-organization-own-app' }] });
    expect(assistant.status, assistant.text).toBe(201);
    const sent: ChannelMessage[] = [];
    const sender = { send: async (_channel: ChannelTarget, message: ChannelMessage) => (sent.push(message), 'ok') };
    const executionId = await recordRunningExecution(stack.runtime, { organizationId: org.id, assistantId: assistant.body.id });
    const request = { executionId, organizationId: org.id, assistantId: assistant.body.id, channelIndex: 0, output: 'done', receivedAt: new Date().toISOString() };
    await deliverToChannel(stack.runtime, sender, request);
    expect(sent).toHaveLength(1);

    expect((await api(org.admin.key, 'PUT', `/users/${owner.id}/status`, { status: 'disabled' })).status).toBe(200);
    await expect(deliverToChannel(stack.runtime, sender, { ...request, executionId: `exec_${randomUUID()}` })).rejects.toThrow(/owner/i);
    expect(sent).toHaveLength(1);
  });
});
