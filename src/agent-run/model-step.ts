// The one model step of an agent run (an automation run or an assistant's webhook execution):
// check that the owner may still act, then one gateway call with the run's identity, heartbeating
// while it runs (Temporal notices a lost worker within the heartbeat timeout) and cancelled with
// the activity (a cancelled run stops its upstream call). Failures leave as activity failures that
// say whether a retry can help (./retry.ts).
import type { AppDeps } from '../runtime-deps.js';
import type { ChatContext, ChatMessage, ToolCall, ToolDefinition } from '../gateway/types.js';
import { whileHeartbeating } from './heartbeat.js';
import { toActivityFailure } from './retry.js';

/** Who a run's model call is for: the usage is recorded under this identity. */
export interface RunIdentity {
  organizationId: string;
  source: Extract<ChatContext['source'], 'automation' | 'webhook'>;
  /** The automation run or the webhook execution. */
  runId: string;
}

export interface ModelStepRequest {
  identity: RunIdentity;
  /** The owner the call acts as now: resolves to their id, or throws (forbidden) once they may not. */
  owner: () => Promise<string>;
  model: string;
  /** The run's own prompt (system and user messages), resolved at its start. */
  prompt: ChatMessage[];
  /** The tool rounds so far, after the prompt. */
  conversation?: ChatMessage[] | undefined;
  /** Tools offered to the model in this call; absent or null = none. */
  tools?: ToolDefinition[] | null | undefined;
}

export interface ModelStepResult {
  output: string;
  /** The model id that answered (the configured id, not the tier). */
  model: string;
  toolCalls: ToolCall[];
  tokensInput: number;
  tokensOutput: number;
  cost: number;
}

export async function modelStep(deps: Pick<AppDeps, 'gateway'>, request: ModelStepRequest): Promise<ModelStepResult> {
  try {
    return await whileHeartbeating(async (cancellation) => {
      const userId = await request.owner();
      const result = await deps.gateway.complete(
        {
          model: request.model,
          messages: [...request.prompt, ...(request.conversation ?? [])],
          ...(request.tools ? { tools: request.tools } : {}),
        },
        { ...request.identity, userId },
        cancellation,
      );
      return {
        output: result.content ?? '',
        model: result.model,
        toolCalls: result.toolCalls,
        tokensInput: result.usage.inputTokens,
        tokensOutput: result.usage.outputTokens,
        cost: result.cost,
      };
    });
  } catch (error) {
    throw toActivityFailure(error);
  }
}
