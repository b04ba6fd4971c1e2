// The assistant step of a webhook execution: the assistant answers through the gateway core,
// with the webhook body as its context. With tools (its own and its skill's), the execution
// workflow runs the tool loop: each model call is `runAssistantOnce` with the conversation so
// far, each tool call its own activity (`callAssistantTool`). Gateway errors become activity
// failures that say whether a retry can help.
import { withApprovalModes } from '../connectors/approval-modes.js';
import { ApplicationFailure } from '@temporalio/activity';
import type { AppDeps } from '../runtime-deps.js';
import { loadAssistantForRun } from '../assistants/assistants.service.js';
import type { Assistant } from '../assistants/entities.js';
import { PermanentDeliveryError, type ChannelSender } from '../channels/index.js';
import {
  callToolWithDlp,
  listConnectionTools,
  type ConnectionTools,
  type ToolBinding,
  type ToolCallResult,
  type ToolUseDeps,
} from '../connectors/tool-use.js';
import { scanRunInputForDlp } from '../automations/run-dlp.js';
import { AppError } from '../errors.js';
import { guardOutgoingText, type OutgoingDlpDeps } from '../gateway/dlp/outgoing.js';
import { assertOwnerActive } from '../identity/run-principal.js';
import { WebhookExecution } from './entities.js';
import type { ChatMessage, ToolCall, ToolDefinition } from '../gateway/types.js';
import { resolveSkillVersion, type ResolvedSkillVersion } from '../skills/skills.service.js';
import type { WebhookExecutionInput, WebhookExecutionOutcome } from '../workflows/webhook-execution.contract.js';

export type AssistantStepInput = WebhookExecutionInput & {
  assistantId: string;
  /** The tool rounds so far (assistant tool calls and tool results), after the webhook body. */
  conversation?: ChatMessage[];
  /** Tools offered to the model in this call; absent or null = none. */
  tools?: ToolDefinition[] | null;
  /** The version of the assistant's skill this execution uses (from the tool listing); absent = current. */
  skillVersion?: number | null;
};

/** One model call of the assistant with the webhook body as context, through the gateway core. */
export async function runAssistantOnce(
  deps: Pick<AppDeps, 'orm' | 'gateway'>,
  input: AssistantStepInput,
): Promise<WebhookExecutionOutcome & { channelCount: number; toolCalls: ToolCall[] }> {
  const assistant = await loadAssistant(deps, input.organizationId, input.assistantId);
  try {
    await assertOwnerActive(deps.orm.em.fork(), assistant.organizationId, assistant.ownerId);
    // A skill contributes its pinned version's instructions before the assistant's own.
    const skill = await skillOf(deps, assistant, input.skillVersion ?? undefined);
    const result = await deps.gateway.complete(
      {
        model: assistant.model,
        messages: [
          ...(skill ? [{ role: 'system' as const, content: skill.systemPrompt }] : []),
          { role: 'system', content: assistant.systemPrompt },
          { role: 'user', content: webhookContext(input.body) },
          ...(input.conversation ?? []),
        ],
        ...(input.tools ? { tools: input.tools } : {}),
      },
      { organizationId: input.organizationId, userId: assistant.ownerId, source: 'webhook', runId: input.executionId },
    );
    return {
      output: result.content ?? '',
      model: result.model,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, cost: result.cost },
      channelCount: assistant.channels.length,
      toolCalls: result.toolCalls,
    };
  } catch (error) {
    throw asActivityFailure(error);
  }
}

/**
 * The DLP step of an assistant execution, before any model call: the assistant's prompts (its
 * skill's included) and the webhook payload, under the organization's policy. A block fails the
 * execution with `dlp_blocked` naming the detector types only; mask and log are applied by the
 * gateway's own scan of each request it sends.
 */
export async function scanWebhookInput(
  deps: Pick<AppDeps, 'orm' | 'gateway'>,
  input: { organizationId: string; assistantId: string; body: unknown },
): Promise<void> {
  const assistant = await loadAssistant(deps, input.organizationId, input.assistantId);
  try {
    const skill = await skillOf(deps, assistant);
    await scanRunInputForDlp(deps, input.organizationId, [skill?.systemPrompt ?? '', assistant.systemPrompt, webhookContext(input.body)]);
  } catch (error) {
    throw asActivityFailure(error);
  }
}

/**
 * The assistant's tools (its own connector ids plus its skill's) resolved to its owner's
 * connections, as OpenAI function tools; none without tools (no connector is started then).
 * Also the skill version resolved here (the assistant's pin), which every model call of the
 * execution then uses. A disabled or removed owner fails the execution here.
 */
export async function listAssistantTools(
  deps: Pick<AppDeps, 'orm' | 'gateway'> & ToolUseDeps,
  input: { organizationId: string; assistantId: string },
): Promise<ConnectionTools & { skillVersion: number | null }> {
  const assistant = await loadAssistant(deps, input.organizationId, input.assistantId);
  let skill: ResolvedSkillVersion | undefined;
  try {
    await assertOwnerActive(deps.orm.em.fork(), assistant.organizationId, assistant.ownerId);
    skill = await skillOf(deps, assistant);
  } catch (error) {
    throw asActivityFailure(error);
  }
  const skillVersion = skill?.version ?? null;
  const toolIds = [...new Set([...(skill?.tools ?? []), ...assistant.tools])];
  if (toolIds.length === 0) return { tools: [], bindings: {}, unavailable: [], skillVersion };
  const tools = await listConnectionTools(deps, { organizationId: assistant.organizationId, userId: assistant.ownerId, toolIds });
  for (const missing of tools.unavailable) {
    deps.logger.warn({ assistantId: assistant.id, toolId: missing.toolId, reason: missing.reason }, 'assistant tool unavailable');
  }
  // Calls of tools under an `always` policy wait for a person (src/workflows/approval-wait.ts).
  const marked = await withApprovalModes(deps.orm.em.fork(), tools, { skillAlways: skill?.approvalRequired ?? [], own: assistant.toolApprovals ?? {} });
  return { ...marked, skillVersion };
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
  return callToolWithDlp(deps, { ...input, userId, source: { type: 'webhook_execution', id: input.executionId } }, asActivityFailure);
}

/** The current owner of the assistant a webhook execution runs. */
async function ownerOfExecution(deps: Pick<AppDeps, 'orm'>, organizationId: string, executionId: string): Promise<string | undefined> {
  const em = deps.orm.em.fork();
  const execution = await em.findOne(WebhookExecution, { id: executionId, organizationId });
  const assistant = execution?.assistantId ? await loadAssistantForRun(em, organizationId, execution.assistantId) : null;
  return assistant?.ownerId;
}

async function loadAssistant(deps: Pick<AppDeps, 'orm'>, organizationId: string, assistantId: string): Promise<Assistant> {
  const assistant = await loadAssistantForRun(deps.orm.em.fork(), organizationId, assistantId);
  if (!assistant) throw ApplicationFailure.nonRetryable('The assistant of this webhook no longer exists', 'not_found');
  return assistant;
}

/** The skill version an execution uses: the one given (resolved earlier in it), else the assistant's pin. */
async function skillOf(deps: Pick<AppDeps, 'orm'>, assistant: Assistant, version?: number): Promise<ResolvedSkillVersion | undefined> {
  if (!assistant.skillId) return undefined;
  const pinned = version ?? assistant.skillVersion ?? undefined;
  return resolveSkillVersion(deps.orm.em.fork(), { organizationId: assistant.organizationId, userId: assistant.ownerId }, assistant.skillId, pinned);
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
 * Delivers the answer to one channel of the assistant. One activity per channel, so a retry
 * repeats only the channel that failed; the delivery id stays the same across retries.
 */
export async function deliverToChannel(
  deps: Pick<AppDeps, 'orm' | 'secrets' | 'clock' | 'gateway'>,
  sender: ChannelSender,
  request: ChannelDeliveryRequest,
): Promise<void> {
  const assistant = await loadAssistantForRun(deps.orm.em.fork(), request.organizationId, request.assistantId);
  const channel = assistant?.channels[request.channelIndex];
  if (!assistant || !channel) return; // changed since the run: nothing left to deliver to
  try {
    // A delivery acts for the owner too: not once they are disabled or removed.
    await assertOwnerActive(deps.orm.em.fork(), assistant.organizationId, assistant.ownerId);
    // The answer, and the assistant's name with it, leave the organization here: blocked or
    // masked per its DLP policy.
    const outgoing = { organizationId: request.organizationId, destination: `channel:${channel.type}`, source: { type: 'webhook_execution' as const, id: request.executionId } };
    const output = await guardOutgoingText(deps, { ...outgoing, text: request.output });
    const assistantName = await guardOutgoingText(deps, { ...outgoing, text: assistant.name });
    await sender.send(
      { type: channel.type, target: channel.target, secret: channel.encryptedSecret ? deps.secrets.decrypt(channel.encryptedSecret) : undefined },
      {
        kind: 'assistant_webhook',
        deliveryId: assistantDeliveryId(request.executionId, request.channelIndex),
        assistantId: assistant.id,
        assistantName,
        executionId: request.executionId,
        receivedAt: request.receivedAt,
        output,
      },
    );
  } catch (error) {
    if (error instanceof PermanentDeliveryError) {
      throw ApplicationFailure.nonRetryable(`Delivery to ${channel.type} channel ${request.channelIndex} failed: ${error.message}`, 'delivery_failed');
    }
    throw asActivityFailure(error);
  }
}

/** The user message the model sees: the request body, verbatim as JSON. */
export function webhookContext(body: unknown): string {
  return `A webhook delivered this JSON payload:\n\n${JSON.stringify(body, null, 2)}`;
}

/** Client-side gateway errors (budget, DLP, bad model) will not pass on a retry; upstream ones may. */
export function asActivityFailure(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  return ApplicationFailure.create({ message: error.message, type: error.code, nonRetryable: error.status < 500 });
}
