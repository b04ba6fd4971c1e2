// Assistants: CRUD within the caller's organization, and the webhook that activates an assistant
// with a webhook trigger. Every member reads the organization's assistants. Its executions act as
// its owner (`ownerId`: connections, skill access, usage), so only the owner changes what it runs
// (prompt, model, skill, tools, channels) and its trigger: a webhook's body becomes the
// execution's user message, so the trigger and the webhook URL (a credential, shown to the owner
// only) are run content too; changes to them are audited. The owner, admins and the
// organization's owner manage the rest (name, description, delete). Admins and the organization's
// owner may take ownership.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError } from '@temporalio/client';
import { cancelPendingApprovalsOf } from '../approval-policy/cancellation.js';
import { storedSlackChannel } from '../channels/stored.js';
import type { AppDeps } from '../runtime-deps.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import { resolveSkillVersion } from '../skills/skills.service.js';
import { hasRole, type Caller } from '../identity/caller.js';
import { assertQuota } from '../quotas/quota.js';
import type { Webhook } from '../webhooks/entities.js';
import { isRecordId } from '../webhooks/webhook-ids.js';
import {
  activeAssistantWebhooks,
  issueWebhook,
  revokeAssistantWebhooks,
  webhookUrl,
} from '../webhooks/webhooks.service.js';
import type { ChannelInput, CreateAssistantInput, UpdateAssistantInput } from './assistants.schemas.js';
import { Assistant, type AssistantChannel } from './entities.js';

export type AssistantDeps = Pick<AppDeps, 'orm' | 'secrets' | 'config' | 'clock'>;

export interface AssistantView {
  id: string;
  name: string;
  description: string;
  systemPrompt: string;
  model: string;
  skillId: string | null;
  skillVersion: number | null;
  tools: string[];
  toolApprovals: Record<string, 'always' | 'never'>;
  /** Webhook channels show their signing secret only in the response that generated it. */
  channels: Array<{ type: AssistantChannel['type']; target: string; secret?: string }>;
  trigger: { type: 'webhook' } | null;
  /** Present only for the assistant's owner, and only with a webhook trigger. */
  webhookUrl?: string;
  createdBy: string;
  ownerId: string;
  createdAt: string;
  updatedAt: string;
}

/** The fields that decide what an execution does: only the assistant's owner changes them. */
const RUN_CONTENT_FIELDS = ['systemPrompt', 'model', 'skillId', 'skillVersion', 'tools', 'toolApprovals', 'channels', 'trigger'] as const;

export async function createAssistant(deps: AssistantDeps, caller: Caller, input: CreateAssistantInput): Promise<AssistantView> {
  const now = deps.clock.now();
  const { channels, revealed } = storeChannels(deps, input.channels, []);
  const skillVersion = input.skillId ? await pinnedSkillVersion(deps, caller, input.skillId, input.skillVersion) : null;
  if (!input.skillId && input.skillVersion !== null) throw badRequest('skillVersion pins a version of the skill named by skillId; set skillId too', 'skillVersion');
  return deps.orm.em.fork().transactional(async (em) => {
    await assertQuota(em, deps.config, 'assistants', caller);
    if (input.trigger?.type === 'webhook') await assertQuota(em, deps.config, 'webhooks', caller);
    const assistant = em.create(Assistant, {
      organizationId: caller.organizationId,
      createdBy: caller.userId,
      ownerId: caller.userId,
      name: input.name,
      description: input.description,
      systemPrompt: input.systemPrompt,
      model: input.model,
      skillId: input.skillId,
      skillVersion,
      tools: input.tools,
      toolApprovals: input.toolApprovals,
      channels,
      triggerType: input.trigger?.type ?? null,
      createdAt: now,
      updatedAt: now,
    });
    // The assistant row first: the webhook row references it.
    await em.flush();
    const webhook = assistant.triggerType === 'webhook' ? issueAssistantWebhook(em, deps, assistant, caller, now) : undefined;
    return toView(deps, caller, assistant, webhook, revealed);
  });
}

export async function listAssistants(deps: AssistantDeps, caller: Caller): Promise<{ assistants: AssistantView[]; total: number }> {
  const em = deps.orm.em.fork();
  const assistants = await em.find(Assistant, { organizationId: caller.organizationId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
  const webhooks = await activeAssistantWebhooks(em, caller.organizationId, assistants.map((a) => a.id));
  return {
    assistants: assistants.map((assistant) => toView(deps, caller, assistant, webhooks.get(assistant.id))),
    total: assistants.length,
  };
}

export async function getAssistant(deps: AssistantDeps, caller: Caller, id: string): Promise<AssistantView> {
  const em = deps.orm.em.fork();
  const assistant = await findAssistant(em, caller, id);
  return toView(deps, caller, assistant, await currentWebhook(em, assistant));
}

export async function updateAssistant(deps: AssistantDeps, caller: Caller, id: string, patch: UpdateAssistantInput, requestId?: string): Promise<AssistantView> {
  const em = deps.orm.em.fork();
  const now = deps.clock.now();
  const assistant = await findAssistant(em, caller, id);
  assertCanEdit(assistant, caller);
  assertCanChangeRunContent(assistant, caller, patch);
  const { trigger, channels: channelInput, skillId, skillVersion, ...fields } = patch;
  em.assign(assistant, { ...fields, ...(await skillAfterUpdate(deps, caller, assistant, { skillId, skillVersion })), updatedAt: now });
  let revealed = new Map<number, string>();
  if (channelInput) ({ channels: assistant.channels, revealed } = storeChannels(deps, channelInput, assistant.channels));
  const webhook = await em.transactional(async (tx) => {
    const current = await currentWebhook(tx, assistant);
    return trigger === undefined ? current : applyTrigger(tx, deps, caller, assistant, current, trigger, now, requestId);
  });
  await em.flush();
  return toView(deps, caller, assistant, webhook, revealed);
}

/**
 * Sets or removes the webhook trigger: revokes the URL, or issues one (counted against the
 * webhook quota, inside the caller's transaction); audited when the trigger changes.
 */
async function applyTrigger(
  em: EntityManager,
  deps: AssistantDeps,
  caller: Caller,
  assistant: Assistant,
  current: Webhook | undefined,
  trigger: UpdateAssistantInput['trigger'],
  now: Date,
  requestId: string | undefined,
): Promise<Webhook | undefined> {
  const before = assistant.triggerType;
  let webhook = current;
  if (!trigger && webhook) {
    await revokeAssistantWebhooks(em, caller.organizationId, assistant.id, now);
    webhook = undefined;
  }
  if (trigger && !webhook) {
    await assertQuota(em, deps.config, 'webhooks', caller);
    webhook = issueAssistantWebhook(em, deps, assistant, caller, now);
  }
  assistant.triggerType = trigger?.type ?? null;
  if (before !== assistant.triggerType) audit(em, deps, caller, assistant, 'assistant.trigger_changed', { from: before, to: assistant.triggerType }, requestId);
  return webhook;
}

/**
 * Removes the assistant; its webhooks go with it (foreign key cascade). Executions already
 * acknowledged still finish, but those waiting for a person are cancelled with their requests:
 * nobody may approve a call of an assistant that is gone (SECURITY.md's third round).
 */
export async function deleteAssistant(deps: AssistantDeps & Pick<AppDeps, 'temporal' | 'logger'>, caller: Caller, id: string): Promise<void> {
  const em = deps.orm.em.fork();
  const assistant = await findAssistant(em, caller, id);
  assertCanEdit(assistant, caller);
  const waiting = await em.transactional(async (tx) => {
    // The row first: a decision holds a lock on it, so its request is decided before or cancelled after.
    await tx.nativeDelete(Assistant, { id: assistant.id, organizationId: caller.organizationId });
    return cancelPendingApprovalsOf(tx, caller.organizationId, { assistantId: assistant.id }, deps.clock.now());
  });
  await stopWaitingExecutions(deps, waiting);
}

async function stopWaitingExecutions(deps: Pick<AppDeps, 'temporal' | 'logger'>, workflowIds: string[]): Promise<void> {
  for (const workflowId of workflowIds) {
    try {
      await deps.temporal.client.workflow.getHandle(workflowId).cancel();
    } catch (error) {
      // Ended meanwhile: nothing waits any more. Otherwise it waits out its requests' expiry, then fails.
      if (!(error instanceof WorkflowNotFoundError)) deps.logger.warn({ err: error, workflowId }, 'could not cancel an execution of a deleted assistant');
    }
  }
}

/** Replaces the webhook URL id: the old URL answers 404 from the moment this returns. */
export async function regenerateAssistantWebhook(deps: AssistantDeps, caller: Caller, id: string, requestId?: string): Promise<AssistantView> {
  const em = deps.orm.em.fork();
  const now = deps.clock.now();
  const assistant = await findAssistant(em, caller, id);
  assertCanEdit(assistant, caller);
  assertCanChangeRunContent(assistant, caller, { trigger: { type: 'webhook' } });
  if (assistant.triggerType !== 'webhook') throw notFound('Webhook of this assistant');
  const webhook = await em.transactional(async (tx) => {
    await revokeAssistantWebhooks(tx, caller.organizationId, assistant.id, now);
    const issued = issueAssistantWebhook(tx, deps, assistant, caller, now);
    audit(tx, deps, caller, assistant, 'assistant.webhook_regenerated', { webhookId: issued.id }, requestId);
    return issued;
  });
  return toView(deps, caller, assistant, webhook);
}

/** An admin or the organization's owner becomes the assistant's owner (audited); its executions act as them. */
export async function takeAssistantOwnership(deps: AssistantDeps, caller: Caller, id: string, requestId?: string): Promise<AssistantView> {
  if (!hasRole(caller, 'admin')) throw forbidden('Only admins and the organization owner take ownership');
  const em = deps.orm.em.fork();
  const assistant = await findAssistant(em, caller, id);
  if (assistant.ownerId !== caller.userId) {
    const previous = assistant.ownerId;
    assistant.ownerId = caller.userId;
    assistant.updatedAt = deps.clock.now();
    recordAuditEvent(em, {
      organizationId: caller.organizationId,
      actor: caller,
      action: 'assistant.ownership_taken',
      target: { type: 'assistant', id: assistant.id },
      metadata: { from: previous, to: caller.userId },
      requestId,
      at: deps.clock.now(),
    });
    await em.flush();
  }
  return toView(deps, caller, assistant, await currentWebhook(em, assistant));
}

function audit(em: EntityManager, deps: AssistantDeps, caller: Caller, assistant: Assistant, action: string, metadata: Record<string, unknown>, requestId: string | undefined): void {
  recordAuditEvent(em, {
    organizationId: caller.organizationId,
    actor: caller,
    action,
    target: { type: 'assistant', id: assistant.id },
    metadata,
    requestId,
    at: deps.clock.now(),
  });
}

/** The assistant a webhook execution runs, scoped to the webhook's organization. */
export async function loadAssistantForRun(em: EntityManager, organizationId: string, assistantId: string): Promise<Assistant | null> {
  return em.findOne(Assistant, { id: assistantId, organizationId });
}

async function findAssistant(em: EntityManager, caller: Caller, id: string): Promise<Assistant> {
  const assistant = isRecordId(id) ? await em.findOne(Assistant, { id, organizationId: caller.organizationId }) : null;
  if (!assistant) throw notFound('Assistant');
  return assistant;
}

async function currentWebhook(em: EntityManager, assistant: Assistant): Promise<Webhook | undefined> {
  if (assistant.triggerType !== 'webhook') return undefined;
  const webhooks = await activeAssistantWebhooks(em, assistant.organizationId, [assistant.id]);
  return webhooks.get(assistant.id);
}

function issueAssistantWebhook(em: EntityManager, deps: AssistantDeps, assistant: Assistant, caller: Caller, now: Date): Webhook {
  return issueWebhook(em, deps.secrets, {
    organizationId: assistant.organizationId,
    createdBy: caller.userId,
    target: { kind: 'assistant', assistantId: assistant.id },
    now,
  });
}

function canManage(assistant: Assistant, caller: Caller): boolean {
  return assistant.ownerId === caller.userId || hasRole(caller, 'admin');
}

function assertCanEdit(assistant: Assistant, caller: Caller): void {
  if (!canManage(assistant, caller)) throw forbidden('Only the owner of an assistant, admins and the organization owner may change it');
}

/** 403 naming the first run-content field of the patch unless the caller owns the assistant. */
function assertCanChangeRunContent(assistant: Assistant, caller: Caller, patch: Pick<UpdateAssistantInput, (typeof RUN_CONTENT_FIELDS)[number]>): void {
  if (assistant.ownerId === caller.userId) return;
  const field = RUN_CONTENT_FIELDS.find((name) => patch[name] !== undefined);
  if (field) throw new AppError('forbidden', `Only the assistant's owner changes what it runs (${field}); take ownership first`, { param: field });
}

/**
 * The skill fields after an update (nothing when the patch leaves them alone): another skill, or
 * `skillVersion: null`, pins the current version; a given version must exist.
 */
async function skillAfterUpdate(
  deps: AssistantDeps,
  caller: Caller,
  assistant: Assistant,
  patch: { skillId?: string | null | undefined; skillVersion?: number | null | undefined },
): Promise<Partial<Pick<Assistant, 'skillId' | 'skillVersion'>>> {
  if (patch.skillId === undefined && patch.skillVersion === undefined) return {};
  const skillId = patch.skillId === undefined ? assistant.skillId : patch.skillId;
  if (!skillId) {
    if (patch.skillVersion) throw badRequest('skillVersion pins a version of the skill named by skillId; set skillId too', 'skillVersion');
    return { skillId: null, skillVersion: null };
  }
  const keptPin = skillId === assistant.skillId ? assistant.skillVersion : null;
  const wanted = patch.skillVersion === undefined ? keptPin : patch.skillVersion;
  return { skillId, skillVersion: await pinnedSkillVersion(deps, caller, skillId, wanted) };
}

/** The version to pin (the one asked for, else the current one); 400 naming the field unless usable. */
async function pinnedSkillVersion(deps: AssistantDeps, caller: Caller, skillId: string, version: number | null): Promise<number> {
  try {
    return (await resolveSkillVersion(deps.orm.em.fork(), caller, skillId, version ?? undefined)).version;
  } catch (error) {
    if (error instanceof AppError && (error.code === 'not_found' || error.code === 'bad_request')) {
      const param = version !== null && /^Version/.test(error.message) ? 'skillVersion' : 'skillId';
      throw badRequest(param === 'skillId' ? 'skillId does not name a skill you can use' : `The skill has no version ${version}`, param);
    }
    throw error;
  }
}

/**
 * Channels as stored: webhook signing secrets encrypted, generated when not given; Slack tokens
 * encrypted, or kept from the same target among `previous` (400 when there is none).
 */
function storeChannels(deps: AssistantDeps, input: ChannelInput[], previous: AssistantChannel[]): { channels: AssistantChannel[]; revealed: Map<number, string> } {
  const revealed = new Map<number, string>();
  const channels = input.map((channel, index): AssistantChannel => {
    if (channel.type === 'slack') return storedSlackChannel(deps.secrets, channel, previous, `channels.${index}.token`);
    if (channel.type !== 'webhook') return { type: channel.type, target: channel.target };
    const secret = channel.secret ?? `whsec_${randomBytes(24).toString('base64url')}`;
    if (!channel.secret) revealed.set(index, secret);
    return { type: 'webhook', target: channel.target, encryptedSecret: deps.secrets.encrypt(secret) };
  });
  return { channels, revealed };
}

function toView(
  deps: AssistantDeps,
  caller: Caller,
  assistant: Assistant,
  webhook: Webhook | undefined,
  revealedSecrets = new Map<number, string>(),
): AssistantView {
  return {
    id: assistant.id,
    name: assistant.name,
    description: assistant.description,
    systemPrompt: assistant.systemPrompt,
    model: assistant.model,
    skillId: assistant.skillId,
    skillVersion: assistant.skillVersion,
    tools: assistant.tools,
    toolApprovals: assistant.toolApprovals,
    channels: assistant.channels.map((channel, index) => ({
      type: channel.type,
      target: channel.target,
      ...(revealedSecrets.has(index) ? { secret: revealedSecrets.get(index)! } : {}),
    })),
    trigger: assistant.triggerType ? { type: assistant.triggerType } : null,
    ...(webhook && assistant.ownerId === caller.userId ? { webhookUrl: webhookUrl(deps.config, deps.secrets, webhook) } : {}),
    createdBy: assistant.createdBy,
    ownerId: assistant.ownerId,
    createdAt: assistant.createdAt.toISOString(),
    updatedAt: assistant.updatedAt.toISOString(),
  };
}
