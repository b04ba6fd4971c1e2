// Determinism across deployments: histories written by the workflow code before the
// `idempotent-run-now` and `assistant-tools` patches (commit bc9a953: an assistant webhook
// execution, an automation webhook execution, an automation entity workflow that ran a webhook
// run and a manual run) and before the `fire-starts-run` patch (commit 13e1d8c: an automation
// entity workflow with a scheduled fire, and that fire's run workflow) replay without a nondeterminism error on the current workflow bundle,
// the way a worker picks up executions that were already running when it was upgraded; so do
// the same scenarios recorded with the patches in place (`*.patched.*`). The assistant histories
// above predate the `webhook-dlp-activity` patch (the payload's DLP scan as its own activity);
// `webhook-execution-assistant-dlp.patched` is an execution with it (recorded by
// test/webhooks/webhook-dlp.test.ts with RECORD_HISTORIES=1: a payload the policy blocks).
// `run-scheduled.patched` and the automation histories above predate the `lean-run` and
// `carried-runs` patches and the operator signals. Recorded with them in place by
// test/automations/operator-controls.test.ts with RECORD_HISTORIES=1:
// - `run-scheduled.lean.patched`: a scheduled run on the `lean-run` path (DLP scan as a local
//   activity, no runFinished signal to its automation);
// - `run-scheduled-cancelled.lean.patched` and `run-manual-cancelled.lean.patched`: runs cancelled
//   from a Temporal client during their model call (`lean-run`; the cancel path records the
//   failure in a non-cancellable scope, as a local activity and as an activity respectively);
// - `automation-operated.patched`: the entity workflow's execution after a continue-as-new that
//   carried a run: its first fire takes the `carried-runs` path (endedRuns finds the carried
//   run ended) and starts a run (`fire-starts-run`); then the signals `pause`, `schedule` (one
//   refused, one applied) and `activate`, and the started run's completion.
// The histories above predate the `carried-plan` patch (the run's first step also runs the DLP
// scan and returns the prompt its plan resolved; the model call is given it instead of reading
// the rows):
// - `run-scheduled.carried-plan.patched`: a scheduled run started by its automation's fire
//   (recorded by test/automations/automations.test.ts with RECORD_HISTORIES=1);
// - `run-manual.carried-plan.patched`: a run recorded by an activity first, whose plan is a
//   regular activity (recorded by test/automations/run-statements.test.ts with RECORD_HISTORIES=1).
// - `run-scheduled.code-1`: a scheduled run whose input carries `codeVersion: 1`, which takes the
//   `lean-run` and `carried-plan` paths without patch calls (recorded by
//   test/automations/automations.test.ts with RECORD_HISTORIES=1); `run-manual.code-1` (by
//   test/automations/run-statements.test.ts), `run-manual-cancelled.code-1` and
//   `run-scheduled-cancelled.code-1` (by test/automations/operator-controls.test.ts) the same for
//   the other scenarios above.
// - `automation-scheduled.code-1` (automations.test.ts) and `automation-operated.code-1`
//   (operator-controls.test.ts, the scenario of `automation-operated.patched`): entity workflows
//   whose state carries `codeVersion: 1` (set by the API at start and by each continue-as-new),
//   which take the `fire-starts-run` and `carried-runs` paths without patch calls.
// The `*.code-2` histories are the same scenarios (by the same tests) on code 2 (AUTOMATION_CODE 2,
// RUN_CODE 2), where a scheduled run may be started ahead of its fire (the run waits on a timer,
// then records itself): `automation-scheduled.code-2` and `run-scheduled.code-2` start it at the fire
// (AUTOMATION_ARM_LEAD_SECONDS=0, the default); `automation-operated.code-2` and
// `run-scheduled-cancelled.code-2` were recorded with runs started ahead (a lead of 60 s); and five
// more by test/automations/armed-fires.test.ts:
// `run-armed.code-2` (a run that waited for its fire), `run-disarmed.code-2` and
// `automation-armed.code-2` (a pause before the fire disarms it; activate arms the next; delete
// cancels it), `run-skipped.code-2` and `automation-skipped.code-2` (a fire skipped by the run
// while a manual run was running, counted by the entity).
// Approvals: `run-tools.code-2` is a run that called a tool, recorded by the code from
// before approvals (commit daa3f3d, test/tools/run-tools.test.ts), replayed through the tool loop
// that now knows about approvals; `run-approved.code-2` (test/approvals/run-approvals.test.ts, a
// call approved through the API) and `webhook-execution-assistant-denied.patched`
// (test/approvals/assistant-approvals.test.ts, a call denied by an operator's signal) waited, and
// hold the `tool-approvals` marker.
// Each history must hold the `core_patch` markers listed below, so a fixture that missed its
// path fails here. The fixtures are binary temporal.api.history.v1.History messages recorded
// from a worker running the respective bundle (test/helpers/histories.ts). Those recorded since
// payloads are encrypted hold ciphertext under the test stack's SECRET_KEY: they replay through
// the worker's own data converter (its codec), as a production worker replays them.
import fs from 'node:fs';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { createPayloadCodec, workerDataConverter } from '../../src/payloads/data-converters.js';
import { HISTORIES_DIR, patchIds, readHistoryFixture } from '../helpers/histories.js';
import { testEnv } from '../helpers/stack.js';

const files = fs.readdirSync(HISTORIES_DIR).filter((name) => name.endsWith('.history.bin')).sort();

/** The patches each history recorded (`core_patch` markers, in order): the path it took. */
const PATCHES: Record<string, string[]> = {
  // The entity's paths chosen by its state (codeVersion 1), without patch calls.
  'automation-operated.code-1.history.bin': [],
  // Code 2: scheduled runs started ahead of their fire (armed), disarmed, skipped at their fire.
  'automation-armed.code-2.history.bin': [],
  'automation-operated.code-2.history.bin': [],
  'automation-scheduled.code-2.history.bin': [],
  'automation-skipped.code-2.history.bin': [],
  // Code 3: fires missed in an outage, the latest run as a `catch-up` run, the others counted
  // (test/automations/catch-up.test.ts), without the `catch-up-run` patch call.
  'automation-catch-up.code-3.history.bin': [],
  'automation-operated.patched.history.bin': ['carried-runs', 'fire-starts-run'],
  'automation-run-now.history.bin': [],
  'automation-run-now.patched.history.bin': ['idempotent-run-now'],
  'automation-scheduled.code-1.history.bin': [],
  'automation-scheduled.history.bin': [],
  'automation-scheduled.patched.history.bin': ['fire-starts-run'],
  // Runs whose input (codeVersion 1) chose their paths, without patch calls.
  'run-manual-cancelled.code-1.history.bin': [],
  // Runs of code 2: those started ahead of their fire wait on a timer (armed, disarmed, skipped).
  'run-armed.code-2.history.bin': [],
  'run-disarmed.code-2.history.bin': [],
  'run-manual-cancelled.code-2.history.bin': [],
  'run-manual.code-2.history.bin': [],
  'run-scheduled-cancelled.code-2.history.bin': [],
  'run-scheduled.code-2.history.bin': [],
  'run-skipped.code-2.history.bin': [],
  // A tool call from before approvals, and one that waited for an approval.
  'run-tools.code-2.history.bin': [],
  'run-approved.code-2.history.bin': ['tool-approvals'],
  // Code 3 (the time of work checked before every model call): approved after longer than the
  // whole time of work, and ended `timed_out` without a wait (test/approvals/work-time.test.ts).
  'run-approved-late.code-3.history.bin': ['tool-approvals'],
  'run-timed-out.code-3.history.bin': [],
  'run-manual-cancelled.lean.patched.history.bin': ['lean-run'],
  'run-manual.code-1.history.bin': [],
  'run-manual.carried-plan.patched.history.bin': ['lean-run', 'carried-plan'],
  'run-scheduled-cancelled.code-1.history.bin': [],
  'run-scheduled-cancelled.lean.patched.history.bin': ['lean-run'],
  'run-scheduled.carried-plan.patched.history.bin': ['lean-run', 'carried-plan'],
  // The same path chosen by the run's input (codeVersion 1), without patch calls.
  'run-scheduled.code-1.history.bin': [],
  'run-scheduled.history.bin': [],
  'run-scheduled.lean.patched.history.bin': ['lean-run'],
  // A scheduled run's own row writes (`begin`) depend on its input, not on a patch.
  'run-scheduled.patched.history.bin': [],
  'webhook-execution-assistant-dlp.patched.history.bin': ['webhook-dlp-activity'],
  'webhook-execution-assistant-denied.patched.history.bin': ['webhook-dlp-activity', 'assistant-tools', 'tool-approvals'],
  'webhook-execution-assistant.history.bin': [],
  'webhook-execution-assistant.patched.history.bin': ['assistant-tools'],
  'webhook-execution-automation.history.bin': [],
  'webhook-execution-automation.patched.history.bin': [],
  'webhook-execution-automation.run-signal.history.bin': ['run-signals-execution'],
};

describe('replay of recorded histories', () => {
  it('has the histories recorded before and after the patches', () => {
    expect(files).toEqual(Object.keys(PATCHES).sort());
  });

  it.each(files)('%s took the path its patch markers name', (file) => {
    expect(patchIds(readHistoryFixture(file))).toEqual(PATCHES[file]);
  });

  it.each(['automation-operated.patched.history.bin', 'automation-operated.code-1.history.bin', 'automation-operated.code-2.history.bin'])('%s holds the carried run\'s check and the operator signals', (file) => {
    const events = readHistoryFixture(file).events;
    expect(events[0]!.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBeTruthy();
    const localActivities = events.flatMap((event) => event.markerRecordedEventAttributes?.markerName === 'core_local_activity'
      ? [JSON.parse(Buffer.from(event.markerRecordedEventAttributes.details!.data!.payloads![0]!.data!).toString('utf8')).activity_type]
      : []);
    expect(localActivities).toEqual(['endedRuns']);
    expect(events.filter((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)).toHaveLength(1);
    expect(events.flatMap((event) => event.workflowExecutionSignaledEventAttributes?.signalName ?? [])).toEqual(['pause', 'schedule', 'schedule', 'activate']);
  });

  it.each(files)('replays %s on the current workflow code', async (file) => {
    const dataConverter = workerDataConverter(createPayloadCodec(Buffer.from(testEnv().SECRET_KEY!, 'base64'), {}));
    await expect(Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter }, readHistoryFixture(file))).resolves.toBeUndefined();
  }, 60_000);
});
