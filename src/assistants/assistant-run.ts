// How an assistant runs for a webhook execution, on the one agent-run pipeline (src/agent-run):
// the input scan, the model step (the webhook body as its context), its tools and their calls,
// and delivery to its channels. The execution resolves the assistant's plan once, with its tool
// listing (prompt with its skill merged in, model, channel count, skill version); every model call
// then carries it and only checks the owner. Calls from executions started before the plan was
// carried (no `plan` in their input) read the assistant again, as they did.
import { ApplicationFailure } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../runtime-deps.js';
import { deliverOnce, type DeliveryResult } from '../agent-run/delivery.js';
import { scanAgentInput } from '../agent-run/input-scan.js';
import { modelStep, type ModelStepResult } from '../agent-run/model-step.js';
import { toActivityFailure } from '../agent-run/retry.js';
import type { ChannelSender } from '../channels/index.js';
import { withApprovalModes } from '../connectors/approval-modes.js';
import {
  callToolWithDlp,
  listConnectionTools,
  type ConnectionTools,
  type ToolBinding,
  type ToolCallResult,
  type ToolUseDeps,
} from '../connectors/tool-use.js';
import type { OutgoingDlpDeps } from '../gateway/dlp/outgoing.js';
import type { ChatMessage, ToolDefinition } from '../gateway/types.js';
import { AppError } from '../errors.js';
import { OWNER_INACTIVE_MESSAGE } from '../identity/run-principal.js';
import { runSettingsFor, type RunSettings } from '../skills/run-settings.js';
import type { WebhookExecutionInput } from '../workflows/webhook-execution.contract.js';
import { loadAssistantForRun } from './assistants.service.js';
import type { Assistant } from './entities.js';

/** What every model call of an execution needs, resolved once by the tool listing. */
export interface AssistantPlan {
  model: string;
  /** The assistant's prompt with its skill version's merged in (skills/run-settings.ts). */
  systemPrompt: string;
  channelCount: number;
}

export type AssistantStepInput = WebhookExecutionInput & {
  assistantId: string;
  /** The tool rounds so far (assistant tool calls and tool results), after the webhook body. */
  conversation?: ChatMessage[];
  /** Tools offered to the model in this call; absent or null = none. */
  tools?: ToolDefinition[] | null;
  /** The version of the assistant's skill this execution uses (from the tool listing); absent = current. */
  skillVersion?: number | null;
  /** The plan the tool listing resolved; absent in executions from before it was carried. */
  plan?: AssistantPlan;
};

export interface AssistantStepResult {
  output: string;
  model: string;
  usage: { inputTokens: number; outputTokens: number; cost: number };
  channelCount: number;
  toolCalls: ModelStepResult['toolCalls'];
}

/** One model call of the assistant with the webhook body as context (the one model step). */
export async function runAssistantOnce(deps: Pick<AppDeps, 'orm' | 'gateway'>, input: AssistantStepInput): Promise<AssistantStepResult> {
  const plan = input.plan ?? (await planOf(deps, await loadAssistant(deps, input.organizationId, input.assistantId), input.skillVersion ?? undefined)).plan;
  const step = await modelStep(deps, {
    identity: { organizationId: input.organizationId, source: 'webhook', runId: input.executionId },
    owner: () => activeOwner(deps.orm.em.fork(), input.organizationId, input.assistantId),
    model: plan.model,
    prompt: [{ role: 'system', content: plan.systemPrompt }, { role: 'user', content: webhookContext(input.body) }],
    conversation: input.conversation,
    tools: input.tools,
  });
  return {
    output: step.output,
    model: step.model,
    usage: { inputTokens: step.tokensInput, outputTokens: step.tokensOutput, cost: step.cost },
    channelCount: plan.channelCount,
    toolCalls: step.toolCalls,
  };
}

/**
 * The input scan of an assistant execution, before any model call: its prompt (its skill's
 * merged in) and the webhook payload, under the organization's DLP policy.
 */
export async function scanWebhookInput(deps: Pick<AppDeps, 'orm' | 'gateway'>, input: { organizationId: string; assistantId: string; body: unknown }): Promise<void> {
  const { plan } = await planOf(deps, await loadAssistant(deps, input.organizationId, input.assistantId));
  await scanAgentInput(deps, input.organizationId, [plan.systemPrompt, webhookContext(input.body)]);
}

/**
 * The assistant's tools (its own connector ids plus its skill's) resolved to its owner's
 * connections, as OpenAI function tools; none without tools (no connector is started then).
 * Also the execution's plan and the skill version resolved here (the assistant's pin), which
 * every model call of the execution then uses. A disabled or removed owner fails the execution here.
 */
export async function listAssistantTools(
  deps: Pick<AppDeps, 'orm' | 'gateway'> & ToolUseDeps,
  input: { organizationId: string; assistantId: string },
): Promise<ConnectionTools & { skillVersion: number | null; plan: AssistantPlan }> {
  const assistant = await loadAssistant(deps, input.organizationId, input.assistantId);
  await activeOwner(deps.orm.em.fork(), input.organizationId, input.assistantId);
  const { plan, settings } = await planOf(deps, assistant);
  const skillVersion = settings.skill?.version ?? null;
  if (settings.tools.length === 0) return { tools: [], bindings: {}, unavailable: [], skillVersion, plan };
  const tools = await listConnectionTools(deps, { organizationId: assistant.organizationId, userId: assistant.ownerId, toolIds: settings.tools });
  for (const missing of tools.unavailable) {
    deps.logger.warn({ assistantId: assistant.id, toolId: missing.toolId, reason: missing.reason }, 'assistant tool unavailable');
  }
  // Calls of tools under an `always` policy wait for a person (src/workflows/approval-wait.ts).
  const marked = await withApprovalModes(deps.orm.em.fork(), tools, { skillAlways: settings.approvalRequired, own: assistant.toolApprovals ?? {} });
  return { ...marked, skillVersion, plan };
}

/**
 * One tool call of an assistant execution, as the assistant's owner now (the owner may have
 * changed since the model chose it); failures come back as error text for the model.
 */
export async function callAssistantTool(
  deps: ToolUseDeps & OutgoingDlpDeps,
  input: { executionId: string; organizationId: string; binding: ToolBinding; arguments: string },
): Promise<ToolCallResult> {
  const userId = await ownerOfExecution(deps, input.organizationId, input.executionId);
  if (!userId) return { text: 'Tool error: the assistant of this execution no longer exists', isError: true, truncated: false };
  return callToolWithDlp(deps, { ...input, userId, source: { type: 'webhook_execution', id: input.executionId } }, toActivityFailure);
}

export interface ChannelDeliveryRequest {
  executionId: string;
  organizationId: string;
  assistantId: string;
  channelIndex: number;
  output: string;
  receivedAt: string;
}

/** Derived from the execution and the channel, never random: every attempt sends the same id. */
export function assistantDeliveryId(executionId: string, channelIndex: number): string {
  return `${executionId}:${channelIndex}`;
}

/**
 * Delivers the answer to one channel of the assistant (the one delivery: outgoing DLP, send, and
 * the delivery record). One activity per channel, so a retry repeats only the channel that failed.
 */
export async function deliverToChannel(
  deps: Pick<AppDeps, 'orm' | 'secrets' | 'clock' | 'gateway'>,
  sender: ChannelSender,
  request: ChannelDeliveryRequest,
): Promise<DeliveryResult | null> {
  const assistant = await loadAssistantForRun(deps.orm.em.fork(), request.organizationId, request.assistantId);
  const channel = assistant?.channels[request.channelIndex];
  if (!assistant || !channel) return null; // changed since the run: nothing left to deliver to
  const deliveryId = assistantDeliveryId(request.executionId, request.channelIndex);
  return deliverOnce(deps, sender, {
    deliveryId,
    owner: { executionId: request.executionId },
    organizationId: request.organizationId,
    ownerId: assistant.ownerId,
    channel,
    output: request.output,
    name: assistant.name,
    message: ({ output, name }) => ({
      kind: 'assistant_webhook',
      deliveryId,
      assistantId: assistant.id,
      assistantName: name,
      executionId: request.executionId,
      receivedAt: request.receivedAt,
      output,
    }),
  });
}

/** The user message the model sees: the request body, verbatim as JSON. */
export function webhookContext(body: unknown): string {
  return `A webhook delivered this JSON payload:\n\n${JSON.stringify(body, null, 2)}`;
}

/** The assistant's settings with its skill merged in, the way automations merge theirs (the one skill merge). */
async function planOf(deps: Pick<AppDeps, 'orm'>, assistant: Assistant, skillVersion?: number): Promise<{ plan: AssistantPlan; settings: RunSettings }> {
  try {
    const settings = await runSettingsFor(deps.orm.em.fork(), {
      organizationId: assistant.organizationId,
      ownerId: assistant.ownerId,
      systemPrompt: assistant.systemPrompt,
      model: assistant.model,
      tools: assistant.tools,
      skillId: assistant.skillId,
      skillVersion: skillVersion ?? assistant.skillVersion,
    });
    return { plan: { model: settings.model, systemPrompt: settings.systemPrompt, channelCount: assistant.channels.length }, settings };
  } catch (error) {
    throw toActivityFailure(error);
  }
}

const ACTIVE_OWNER_SQL = `
select a."owner_id" as "ownerId" from "assistants" a join "users" u on u."id" = a."owner_id" and u."organization_id" = a."organization_id"
where a."id" = ? and a."organization_id" = ? and u."status" = 'active'`;

/** One indexed lookup: the owner the execution acts as now; forbidden (permanent) once they may not, not_found once the assistant is gone. */
async function activeOwner(em: EntityManager, organizationId: string, assistantId: string): Promise<string> {
  const rows = await em.getConnection().execute<{ ownerId: string }[]>(ACTIVE_OWNER_SQL, [assistantId, organizationId]);
  if (rows[0]) return rows[0].ownerId;
  if (!(await loadAssistantForRun(em, organizationId, assistantId))) throw ApplicationFailure.nonRetryable('The assistant of this webhook no longer exists', 'not_found');
  throw toActivityFailure(new AppError('forbidden', OWNER_INACTIVE_MESSAGE, { param: 'ownerId' }));
}

/** The current owner of the assistant a webhook execution runs. */
async function ownerOfExecution(deps: Pick<AppDeps, 'orm'>, organizationId: string, executionId: string): Promise<string | undefined> {
  const em = deps.orm.em.fork();
  const rows = await em.getConnection().execute<{ ownerId: string }[]>(
    'select a."owner_id" as "ownerId" from "webhook_executions" e join "assistants" a on a."id" = e."assistant_id" and a."organization_id" = e."organization_id" where e."id" = ? and e."organization_id" = ?',
    [executionId, organizationId],
  );
  return rows[0]?.ownerId;
}

async function loadAssistant(deps: Pick<AppDeps, 'orm'>, organizationId: string, assistantId: string): Promise<Assistant> {
  const assistant = await loadAssistantForRun(deps.orm.em.fork(), organizationId, assistantId);
  if (!assistant) throw ApplicationFailure.nonRetryable('The assistant of this webhook no longer exists', 'not_found');
  return assistant;
}
