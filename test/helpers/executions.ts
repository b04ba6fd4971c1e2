// A webhook execution's record as its workflow's first activity writes it, for tests that call an
// assistant execution's steps directly (a delivery record belongs to an execution that exists).
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../src/runtime-deps.js';
import { markExecutionRunning } from '../../src/webhooks/executions.service.js';

export async function recordRunningExecution(runtime: Pick<AppDeps, 'orm'>, target: { organizationId: string; assistantId: string }): Promise<string> {
  const executionId = `exec_${randomUUID()}`;
  await markExecutionRunning(runtime.orm.em.fork(), {
    executionId,
    organizationId: target.organizationId,
    webhookRecordId: randomUUID(),
    target: { kind: 'assistant', assistantId: target.assistantId },
    body: {},
    receivedAt: new Date().toISOString(),
  }, new Date());
  return executionId;
}
