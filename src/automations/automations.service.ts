// Automations: scheduled AI jobs of an organization. The row in PostgreSQL holds the
// configuration and the schedule state that lists show; the entity workflow `automation/<id>`
// owns the schedule and writes its state back. Every lifecycle change goes through a validated
// workflow update, so the database and Temporal agree. Runs act as the automation's owner
// (`ownerId`); access.ts says who changes what.
import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { AppDeps } from '../runtime-deps.js';
import { pendingApprovalsOf } from '../approval-policy/views.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { AppError, badRequest, notFound } from '../errors.js';
import type { Caller } from '../identity/caller.js';
import { assertQuota } from '../quotas/quota.js';
import { resolveSkillReference } from '../skills/skills.service.js';
import { revokeAutomationWebhooks } from '../webhooks/webhooks.service.js';
import {
  activateUpdate,
  deleteUpdate,
  editScheduleUpdate,
  pauseUpdate,
  runNowUpdate,
  type ScheduleResult,
} from '../workflows/automation.contract.js';
import { assertCanChangeRunContent, assertCanManageAutomation, assertCanTakeOwnership } from './access.js';
import { automationWorkflowId, ensureAutomationWorkflow, withAutomationWorkflow } from './automation-workflows.js';
import {
  automationIdSchema,
  createAutomationSchema,
  listRunsQuerySchema,
  parseOrThrow,
  updateAutomationSchema,
  type ChannelInput,
} from './automations.schemas.js';
import { automationListItem, automationView, runView } from './automations.views.js';
import type { StoredChannel } from '../channels/types.js';
import { storedSlackChannel } from '../channels/stored.js';
import { Automation, AutomationRun, RUN_STATUSES, type RunTrigger } from './entities.js';
import { assertKnownModel, assertToolsUsable } from './references.js';
import { InvalidScheduleError, nextFireTime, validateSchedule } from '../schedule/schedule.js';

type Deps = Pick<AppDeps, 'config' | 'logger' | 'orm' | 'temporal' | 'clock' | 'secrets' | 'gateway'>;

export async function createAutomation(deps: Deps, caller: Caller, body: unknown) {
  const input = parseOrThrow(createAutomationSchema, body);
  assertValidSchedule(deps, input.schedule, input.timezone);
  // With a skill the runs use its tier, so the default model need not exist; a model given must.
  if (!input.skillId || (body as { model?: unknown }).model !== undefined) assertKnownModel(deps, input.model, caller);
  await assertToolsUsable(deps, caller.organizationId, caller.userId, input.tools);
  // No pin given = the skill's current version now; a later version never changes it by itself.
  const skillVersion = await pinnedSkillVersion(deps, caller, caller.userId, input);
  const { channels, revealed } = storeChannels(deps, input.channels, []);
  const em = deps.orm.em.fork();
  const automation = await em.transactional(async (tx) => {
    await assertQuota(tx, deps.config, 'automations', caller);
    return tx.create(Automation, {
      organizationId: caller.organizationId,
      createdBy: caller.userId,
      ownerId: caller.userId,
      name: input.name,
      description: input.description,
      systemPrompt: input.systemPrompt,
      model: input.model,
      schedule: input.schedule,
      timezone: input.timezone,
      tools: input.tools,
      toolApprovals: input.toolApprovals,
      channels,
      skillId: input.skillId,
      skillVersion,
      status: input.status,
      nextRunAt: input.status === 'active' ? nextFireTime(input.schedule, input.timezone, deps.clock.now()) : null,
    });
  });
  try {
    await ensureAutomationWorkflow(deps, automation);
  } catch (error) {
    // No workflow, no automation: the row would otherwise show a schedule nobody runs.
    await em.nativeDelete(Automation, { id: automation.id });
    throw new AppError('service_unavailable', 'Could not start the automation schedule; try again', { cause: error });
  }
  return automationView(automation, revealed);
}

export async function listAutomations(deps: Deps, caller: Caller) {
  const [automations, total] = await deps.orm.em.fork().findAndCount(
    Automation,
    { organizationId: caller.organizationId },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  return { automations: automations.map(automationListItem), total };
}

export async function getAutomation(deps: Deps, caller: Caller, id: string) {
  const automation = await findAutomation(deps, caller, id);
  return { ...automationView(automation), runSummary: await runSummary(deps, automation.id) };
}

export async function updateAutomation(deps: Deps, caller: Caller, id: string, body: unknown) {
  const input = parseOrThrow(updateAutomationSchema, body);
  const automation = await findManageableAutomation(deps, caller, id);
  assertCanChangeRunContent(automation, caller, input);
  const schedule = input.schedule ?? automation.schedule;
  const timezone = input.timezone ?? automation.timezone;
  const scheduleChanged = schedule !== automation.schedule || timezone !== automation.timezone;
  if (scheduleChanged) assertValidSchedule(deps, schedule, timezone);
  if (input.model !== undefined) assertKnownModel(deps, input.model, caller);
  if (input.tools !== undefined) await assertToolsUsable(deps, automation.organizationId, automation.ownerId, input.tools);
  const reference = skillAfterUpdate(automation, input);
  const skill = reference ? { skillId: reference.skillId, skillVersion: await pinnedSkillVersion(deps, caller, automation.ownerId, reference) } : undefined;
  const stored = input.channels ? storeChannels(deps, input.channels, automation.channels) : undefined;

  const em = deps.orm.em.fork();
  const content = {
    ...pick(input, ['name', 'description', 'systemPrompt', 'model', 'tools', 'toolApprovals'] as const),
    ...(stored ? { channels: stored.channels } : {}),
    ...(skill ?? {}),
    updatedAt: deps.clock.now(),
  };
  await em.nativeUpdate(Automation, { id: automation.id }, content);
  if (scheduleChanged) {
    // The workflow writes the new schedule to the row (with its state version) once it accepted
    // it, before the update returns; a refused schedule never reaches the database.
    await withAutomationWorkflow(deps, { ...automation, schedule, timezone } as Automation, (handle) =>
      handle.executeUpdate(editScheduleUpdate, { args: [{ schedule, timezone }] }),
    );
  }
  if (input.status && input.status !== automation.status) {
    await changeStatus(deps, automation, input.status === 'active' ? 'activate' : 'pause');
  }
  const updated = await findAutomation(deps, caller, id);
  return automationView(updated, stored?.revealed);
}

export async function deleteAutomation(deps: Deps, caller: Caller, id: string): Promise<void> {
  const automation = await findManageableAutomation(deps, caller, id);
  try {
    await deps.temporal.clientFor(automation.organizationId).workflow.getHandle(automationWorkflowId(automation.id)).executeUpdate(deleteUpdate);
  } catch (error) {
    // A workflow that is already gone has nothing left to cancel.
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
  await deleteAutomationRows(deps, caller.organizationId, automation.id);
}

/**
 * Removes the automation's row with its runs, their deliveries and run counts (on delete
 * cascade), and revokes its webhooks, in one transaction. Its running runs are locked first: a
 * run that ends meanwhile (the one just cancelled records its end) holds its run row and then,
 * through the run-count trigger, takes a key-share lock on the automation's row. Deleting the
 * automation's row first would take the two in the other order and deadlock with it.
 */
export async function deleteAutomationRows(deps: Pick<Deps, 'orm' | 'clock'>, organizationId: string, automationId: string): Promise<void> {
  await deps.orm.em.fork().transactional(async (em) => {
    await em.getConnection().execute(
      `select 1 from "automation_runs" where "automation_id" = ? and "organization_id" = ? and "status" = 'running' order by "id" for update`,
      [automationId, organizationId],
      'all',
      em.getTransactionContext(),
    );
    // Its webhook URLs stop resolving (404) together with the automation; executions already
    // acknowledged finish (their run fails as not found).
    await revokeAutomationWebhooks(em, organizationId, automationId, deps.clock.now());
    await em.nativeDelete(Automation, { id: automationId, organizationId });
  });
}

export async function activateAutomation(deps: Deps, caller: Caller, id: string) {
  const automation = await findManageableAutomation(deps, caller, id);
  const result = await changeStatus(deps, automation, 'activate');
  return { id: automation.id, status: result.status, nextRunAt: result.nextRunAt };
}

export async function pauseAutomation(deps: Deps, caller: Caller, id: string) {
  const automation = await findManageableAutomation(deps, caller, id);
  const result = await changeStatus(deps, automation, 'pause');
  return { id: automation.id, status: result.status };
}

/**
 * An admin or the organization's owner becomes the automation's owner: from now on its runs act
 * as them and only they change what it runs. Audited with the previous owner. Also how the
 * automation of a disabled or removed user gets its webhooks back (see webhooks ingress).
 */
export async function takeAutomationOwnership(deps: Deps, caller: Caller, id: string, requestId?: string) {
  assertCanTakeOwnership(caller);
  const automation = await findAutomation(deps, caller, id);
  if (automation.ownerId !== caller.userId) {
    await deps.orm.em.fork().transactional(async (em) => {
      await em.nativeUpdate(Automation, { id: automation.id, organizationId: caller.organizationId }, { ownerId: caller.userId, updatedAt: deps.clock.now() });
      recordAuditEvent(em, {
        organizationId: caller.organizationId,
        actor: caller,
        action: 'automation.ownership_taken',
        target: { type: 'automation', id: automation.id },
        metadata: { from: automation.ownerId, to: caller.userId },
        requestId,
        at: deps.clock.now(),
      });
    });
  }
  return automationView(await findAutomation(deps, caller, id));
}

/**
 * Pauses every active automation `ownerId` owns, through the entity workflow so the database and
 * Temporal agree: its owner was disabled or removed, and its runs would act as them. A pause that
 * fails is logged and left: every run step checks that its owner is active, so such an
 * automation's runs fail with that reason instead of acting. Returns how many were paused.
 */
export async function pauseAutomationsOwnedBy(deps: Deps, organizationId: string, ownerId: string): Promise<number> {
  const owned = await deps.orm.em.fork().find(Automation, { organizationId, ownerId, status: 'active' });
  const results = await Promise.allSettled(owned.map((automation) => changeStatus(deps, automation, 'pause')));
  results.forEach((result, index) => {
    if (result.status === 'rejected') deps.logger.warn({ err: result.reason, automationId: owned[index]!.id }, "could not pause an automation of a disabled owner");
  });
  return results.filter((result) => result.status === 'fulfilled').length;
}

export async function runAutomationNow(deps: Deps, caller: Caller, id: string) {
  const automation = await findManageableAutomation(deps, caller, id);
  return startAutomationRun(deps, { organizationId: caller.organizationId, automationId: automation.id, trigger: 'manual' });
}

/**
 * Starts a run of an automation now, whatever its status (manual runs, webhook triggers). The
 * run is recorded as `running` before this returns. Stable contract for the webhooks feature.
 * With a `runId` (a UUID the caller derives from its own request) the start is idempotent:
 * repeating it returns the run already started, however often or concurrently it is repeated.
 */
export async function startAutomationRun(
  deps: Deps,
  request: { organizationId: string; automationId: string; trigger: Exclude<RunTrigger, 'schedule'>; context?: unknown; runId?: string; retryOf?: string; notify?: string },
): Promise<{ runId: string; automationId: string; status: 'running'; startedAt: string }> {
  const automation = await deps.orm.em.fork().findOne(Automation, { id: request.automationId, organizationId: request.organizationId });
  if (!automation) throw notFound('Automation');
  const { runId } = request;
  const started = await withAutomationWorkflow(deps, automation, (handle) =>
    handle.executeUpdate(runNowUpdate, {
      args: [{
        trigger: request.trigger, context: request.context ?? null,
        ...(runId ? { runId } : {}), ...(request.retryOf ? { retryOf: request.retryOf } : {}), ...(request.notify ? { notify: request.notify } : {}),
      }],
      // The server answers a repeat within the same workflow run with the first outcome; the
      // workflow itself dedupes repeats that reach a later run (after continue-as-new).
      ...(runId ? { updateId: `run/${runId}` } : {}),
    }),
  );
  return { runId: started.runId, automationId: automation.id, status: 'running', startedAt: started.startedAt };
}

export async function listRuns(deps: Deps, caller: Caller, id: string, query: unknown) {
  const { limit, offset, status } = parseOrThrow(listRunsQuerySchema, query);
  const automation = await findAutomation(deps, caller, id);
  const [runs, counts] = await Promise.all([
    deps.orm.em.fork().find(AutomationRun, { automationId: automation.id, ...(status ? { status } : {}) }, { orderBy: { startedAt: 'desc', id: 'desc' }, limit, offset }),
    runCounts(deps, automation.id),
  ]);
  const running = runs.filter((run) => run.status === 'running').map((run) => run.id);
  const pending = await pendingApprovalsOf(deps.orm.em.fork(), caller.organizationId, 'runId', running);
  return {
    runs: runs.map((run) => runView(run, pending.get(run.id))),
    total: status ? counts[status] : Object.values(counts).reduce((a, b) => a + b, 0),
  };
}

// --- helpers -------------------------------------------------------------------------------

async function findAutomation(deps: Deps, caller: Caller, id: string): Promise<Automation> {
  // A malformed id cannot name an automation: same answer as another organization's id.
  if (!automationIdSchema.safeParse(id).success) throw notFound('Automation');
  const automation = await deps.orm.em.fork().findOne(Automation, { id, organizationId: caller.organizationId });
  if (!automation) throw notFound('Automation');
  return automation;
}

/** An automation of the caller's organization that the caller may change (else 404, 403). */
export async function findManageableAutomation(deps: Deps, caller: Caller, id: string): Promise<Automation> {
  const automation = await findAutomation(deps, caller, id);
  assertCanManageAutomation(automation, caller);
  return automation;
}

function changeStatus(deps: Deps, automation: Automation, change: 'activate' | 'pause'): Promise<ScheduleResult> {
  return withAutomationWorkflow(deps, automation, (handle) =>
    handle.executeUpdate(change === 'activate' ? activateUpdate : pauseUpdate),
  );
}

type SkillReference = { skillId: string | null; skillVersion: number | null };

/**
 * The skill fields after an update, or undefined when the update leaves them alone. Another
 * skill, or `skillVersion: null`, means the current version (re-pinning); a pin is otherwise kept.
 */
function skillAfterUpdate(automation: Automation, input: { skillId?: string | null; skillVersion?: number | null }): SkillReference | undefined {
  if (input.skillId === undefined && input.skillVersion === undefined) return undefined;
  const skillId = input.skillId === undefined ? automation.skillId : input.skillId;
  const keptPin = skillId === automation.skillId ? automation.skillVersion : null;
  return { skillId, skillVersion: input.skillVersion === undefined ? keptPin : input.skillVersion };
}

/**
 * The version to pin: the one asked for, else the skill's current version; null without a
 * skill. 400 naming skillId or skillVersion unless the skill (and that version) can be used: the
 * caller must see it, and so must the automation's owner, whose account its runs use.
 */
async function pinnedSkillVersion(deps: Deps, caller: Caller, ownerId: string, reference: SkillReference): Promise<number | null> {
  if (!reference.skillId) {
    if (reference.skillVersion !== null) throw badRequest('skillVersion pins a version of the skill named by skillId; set skillId too', 'skillVersion');
    return null;
  }
  const em = deps.orm.em.fork();
  const wanted = { skillId: reference.skillId, skillVersion: reference.skillVersion };
  const resolved = await resolveSkillReference(em, caller, wanted);
  if (ownerId === caller.userId) return resolved.version;
  await resolveSkillReference(em, { organizationId: caller.organizationId, userId: ownerId }, wanted).catch((error: unknown) => {
    if (error instanceof AppError && error.param === 'skillId') {
      throw badRequest("The skill is not visible to the automation's owner, whose account runs it", 'skillId');
    }
    throw error;
  });
  return resolved.version;
}

function assertValidSchedule(deps: Deps, schedule: string, timezone: string): void {
  try {
    validateSchedule(schedule, timezone, deps.config.AUTOMATION_MIN_INTERVAL_SECONDS, deps.clock.now());
  } catch (error) {
    if (error instanceof InvalidScheduleError) throw badRequest(error.message, error.param);
    throw error;
  }
}

/**
 * Channels as stored: webhook secrets and Slack tokens encrypted. A webhook without a secret keeps
 * the secret of the same target it already had, or gets a generated one that is revealed once; a
 * Slack channel without a token keeps the same target's (400 when it had none).
 */
function storeChannels(deps: Deps, channels: ChannelInput[], previous: StoredChannel[]) {
  const revealed = new Map<number, string>();
  const stored = channels.map((channel, index): StoredChannel => {
    if (channel.type === 'slack') return storedSlackChannel(deps.secrets, channel, previous, `channels[${index}].token`);
    if (channel.type !== 'webhook') return { type: channel.type, target: channel.target };
    const kept = previous.find((old) => old.type === 'webhook' && old.target === channel.target && old.encryptedSecret);
    if (!channel.secret && kept) return kept;
    const secret = channel.secret ?? `whsec_${randomBytes(24).toString('base64url')}`;
    if (!channel.secret) revealed.set(index, secret);
    return { type: 'webhook', target: channel.target, encryptedSecret: deps.secrets.encrypt(secret) };
  });
  return { channels: stored, revealed };
}

/** Runs per status, from the trigger-kept counters (a count(*) over 1M runs took ~300 ms). */
async function runCounts(deps: Deps, automationId: string): Promise<Record<(typeof RUN_STATUSES)[number], number>> {
  const rows = await deps.orm.em
    .fork()
    .getConnection()
    .execute<{ status: string; runs: string | number }[]>('select "status", "runs" from "automation_run_counts" where "automation_id" = ?', [automationId]);
  const counts = Object.fromEntries(RUN_STATUSES.map((status) => [status, 0])) as Record<(typeof RUN_STATUSES)[number], number>;
  for (const row of rows) {
    if (row.status in counts) counts[row.status as keyof typeof counts] = Number(row.runs);
  }
  return counts;
}

async function runSummary(deps: Deps, automationId: string) {
  const em = deps.orm.em.fork();
  const counts = await runCounts(deps, automationId);
  const recent = await em.find(AutomationRun, { automationId }, { orderBy: { startedAt: 'desc', id: 'desc' }, limit: 5 });
  return { counts, total: Object.values(counts).reduce((a, b) => a + b, 0), recentRuns: recent.map((run) => runView(run)) };
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const result: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
  return result;
}
