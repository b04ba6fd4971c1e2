// Assistants: CRUD within the caller's organization, and the webhook that activates an assistant
// with a webhook trigger. Every member reads the organization's assistants; the creator, admins
// and the owner edit them and are the only ones shown the webhook URL (it is a credential).
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../runtime-deps.js';
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
  tools: string[];
  /** Webhook channels show their signing secret only in the response that generated it. */
  channels: Array<{ type: AssistantChannel['type']; target: string; secret?: string }>;
  trigger: { type: 'webhook' } | null;
  /** Present only for the creator, admins and the owner, and only with a webhook trigger. */
  webhookUrl?: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export async function createAssistant(deps: AssistantDeps, caller: Caller, input: CreateAssistantInput): Promise<AssistantView> {
  const now = deps.clock.now();
  const { channels, revealed } = storeChannels(deps, input.channels);
  if (input.skillId) await assertSkillUsable(deps, caller, input.skillId);
  return deps.orm.em.fork().transactional(async (em) => {
    if (input.trigger?.type === 'webhook') await assertQuota(em, deps.config, 'webhooks', caller);
    const assistant = em.create(Assistant, {
      organizationId: caller.organizationId,
      createdBy: caller.userId,
      name: input.name,
      description: input.description,
      systemPrompt: input.systemPrompt,
      model: input.model,
      skillId: input.skillId,
      tools: input.tools,
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

export async function updateAssistant(deps: AssistantDeps, caller: Caller, id: string, patch: UpdateAssistantInput): Promise<AssistantView> {
  const em = deps.orm.em.fork();
  const now = deps.clock.now();
  const assistant = await findAssistant(em, caller, id);
  assertCanEdit(assistant, caller);
  if (patch.skillId) await assertSkillUsable(deps, caller, patch.skillId);
  const { trigger, channels: channelInput, ...fields } = patch;
  em.assign(assistant, { ...fields, updatedAt: now });
  let revealed = new Map<number, string>();
  if (channelInput) ({ channels: assistant.channels, revealed } = storeChannels(deps, channelInput));
  let webhook = await currentWebhook(em, assistant);
  if (trigger !== undefined) {
    assistant.triggerType = trigger?.type ?? null;
    if (!trigger && webhook) {
      await revokeAssistantWebhooks(em, caller.organizationId, assistant.id, now);
      webhook = undefined;
    }
    if (trigger && !webhook) webhook = issueAssistantWebhook(em, deps, assistant, caller, now);
  }
  await em.flush();
  return toView(deps, caller, assistant, webhook, revealed);
}

export async function deleteAssistant(deps: AssistantDeps, caller: Caller, id: string): Promise<void> {
  const em = deps.orm.em.fork();
  const assistant = await findAssistant(em, caller, id);
  assertCanEdit(assistant, caller);
  // Webhooks go with it (foreign key cascade); executions already acknowledged still finish.
  await em.remove(assistant).flush();
}

/** Replaces the webhook URL id: the old URL answers 404 from the moment this returns. */
export async function regenerateAssistantWebhook(deps: AssistantDeps, caller: Caller, id: string): Promise<AssistantView> {
  const em = deps.orm.em.fork();
  const now = deps.clock.now();
  const assistant = await findAssistant(em, caller, id);
  assertCanEdit(assistant, caller);
  if (assistant.triggerType !== 'webhook') throw notFound('Webhook of this assistant');
  const webhook = await em.transactional(async (tx) => {
    await revokeAssistantWebhooks(tx, caller.organizationId, assistant.id, now);
    return issueAssistantWebhook(tx, deps, assistant, caller, now);
  });
  return toView(deps, caller, assistant, webhook);
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
  return assistant.createdBy === caller.userId || hasRole(caller, 'admin');
}

function assertCanEdit(assistant: Assistant, caller: Caller): void {
  if (!canManage(assistant, caller)) throw forbidden('Only the creator of an assistant, admins and the owner may change it');
}

/** 400 naming skillId unless the caller can see the skill and it has a version to run. */
async function assertSkillUsable(deps: AssistantDeps, caller: Caller, skillId: string): Promise<void> {
  try {
    await resolveSkillVersion(deps.orm.em.fork(), caller, skillId);
  } catch (error) {
    if (error instanceof AppError && (error.code === 'not_found' || error.code === 'bad_request')) throw badRequest('skillId does not name a skill you can use', 'skillId');
    throw error;
  }
}

/** Channels as stored: webhook signing secrets encrypted, generated when not given. */
function storeChannels(deps: AssistantDeps, input: ChannelInput[]): { channels: AssistantChannel[]; revealed: Map<number, string> } {
  const revealed = new Map<number, string>();
  const channels = input.map((channel, index): AssistantChannel => {
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
    tools: assistant.tools,
    channels: assistant.channels.map((channel, index) => ({
      type: channel.type,
      target: channel.target,
      ...(revealedSecrets.has(index) ? { secret: revealedSecrets.get(index)! } : {}),
    })),
    trigger: assistant.triggerType ? { type: assistant.triggerType } : null,
    ...(webhook && canManage(assistant, caller) ? { webhookUrl: webhookUrl(deps.config, deps.secrets, webhook) } : {}),
    createdBy: assistant.createdBy,
    createdAt: assistant.createdAt.toISOString(),
    updatedAt: assistant.updatedAt.toISOString(),
  };
}
