// What each cached workflow evaluates for itself. In the worker's reusable V8 context every
// module a workflow loads is evaluated again for that workflow (its module state is its own),
// unless the bundle preloads it once for all (src/worker/bundle.ts). An automation that only
// sleeps must not carry OpenTelemetry (~115 modules, ~250 KB of heap per workflow: the tracing
// interceptors load it only for a workflow started with a trace) nor a copy of our own modules
// (preloaded); a traced workflow still gets its tracing (test/webhooks/traces.test.ts).
import fs from 'node:fs';
import { TypedSearchAttributes } from '@temporalio/common';
import { ReusableVMWorkflowCreator } from '@temporalio/worker/lib/workflow/reusable-vm.js';
import type { WorkflowInfo } from '@temporalio/workflow';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

let creator: ReusableVMWorkflowCreator;

/** The bundle as the worker loads it: code, file name and its inline source map. */
function workflowBundle(codePath: string): { code: string; filename: string; sourceMap: never } {
  const code = fs.readFileSync(codePath, 'utf8');
  const comment = code.lastIndexOf('//# sourceMappingURL=data:');
  const base64 = code.indexOf('base64,', comment);
  if (comment < 0 || base64 < 0) throw new Error(`no inline source map in ${codePath}`);
  const sourceMap = JSON.parse(Buffer.from(code.slice(base64 + 'base64,'.length).trimEnd(), 'base64').toString('utf8')) as never;
  return { code, filename: codePath, sourceMap };
}

function info(workflowType: string): WorkflowInfo {
  const now = new Date();
  return {
    workflowId: `${workflowType}/memory`, runId: '0196a3a0-0000-7000-8000-000000000001', workflowType, taskQueue: 'memory', namespace: 'default',
    firstExecutionRunId: '0196a3a0-0000-7000-8000-000000000001', originalExecutionRunId: '0196a3a0-0000-7000-8000-000000000001',
    searchAttributes: {}, typedSearchAttributes: new TypedSearchAttributes(), historyLength: 3, historySize: 1000, continueAsNewSuggested: false,
    targetWorkerDeploymentVersionChanged: false, startTime: now, runStartTime: now, taskTimeoutMs: 10_000, attempt: 1,
    unsafe: { isReplaying: false, now: () => Date.now(), isReplayingHistoryEvents: false } as unknown as WorkflowInfo['unsafe'],
  };
}

beforeAll(async () => {
  creator = await ReusableVMWorkflowCreator.create(workflowBundle(inject('workflowBundlePath')), 5000, new Set());
});
afterAll(async () => {
  await creator?.destroy();
});

describe('modules evaluated per cached workflow', () => {
  it.each(['automationWorkflow', 'runWorkflow', 'webhookExecutionWorkflow'])('%s evaluates neither OpenTelemetry nor our own modules', async (workflowType) => {
    const workflow = await creator.createWorkflow({ info: info(workflowType), randomnessSeed: [1, 2, 3, 4], now: Date.now(), showStackTraceSources: false });
    try {
      const own = [...(workflow as unknown as { activator: { moduleCache: Map<string, unknown> } }).activator.moduleCache.keys()];
      expect(own.filter((id) => id.includes('opentelemetry'))).toEqual([]);
      expect(own.filter((id) => id.startsWith('./src/'))).toEqual([]);
      // What is left: a few of the SDK's own modules (the workflow package's index and its siblings).
      expect(own.length).toBeLessThanOrEqual(10);
    } finally {
      await workflow.dispose();
    }
  });
});
