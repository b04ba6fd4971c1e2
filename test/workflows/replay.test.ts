// Determinism across deployments: histories written by the workflow code before the
// `idempotent-run-now` and `assistant-tools` patches (commit bc9a953: an assistant webhook
// execution, an automation webhook execution, an automation entity workflow that ran a webhook
// run and a manual run) and before the `fire-starts-run` patch (commit 13e1d8c: an automation
// entity workflow with a scheduled fire, and that fire's run workflow) replay without a nondeterminism error on the current workflow bundle,
// the way a worker picks up executions that were already running when it was upgraded; so do
// the same scenarios recorded with the patches in place (`*.patched.*`). The assistant histories
// above predate the `webhook-dlp-activity` patch (the payload's DLP scan as its own activity);
// `webhook-execution-assistant-dlp.patched` is an execution with it (recorded by
// test/webhooks/webhook-dlp.test.ts with RECORD_HISTORIES=1: a payload the policy blocks). The fixtures are binary
// temporal.api.history.v1.History messages recorded from a worker running the respective bundle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';

const HISTORIES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/histories');
const files = fs.readdirSync(HISTORIES).filter((name) => name.endsWith('.history.bin')).sort();

describe('replay of recorded histories', () => {
  it('has the histories recorded before and after the patches', () => {
    expect(files).toEqual([
      'automation-run-now.history.bin',
      'automation-run-now.patched.history.bin',
      'automation-scheduled.history.bin',
      'automation-scheduled.patched.history.bin',
      'run-scheduled.history.bin',
      'run-scheduled.patched.history.bin',
      'webhook-execution-assistant-dlp.patched.history.bin',
      'webhook-execution-assistant.history.bin',
      'webhook-execution-assistant.patched.history.bin',
      'webhook-execution-automation.history.bin',
      'webhook-execution-automation.patched.history.bin',
    ]);
  });

  it.each(files)('replays %s on the current workflow code', async (file) => {
    const history = proto.temporal.api.history.v1.History.decode(fs.readFileSync(path.join(HISTORIES, file)));
    await expect(Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history)).resolves.toBeUndefined();
  }, 60_000);
});
