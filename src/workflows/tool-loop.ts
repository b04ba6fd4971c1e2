// The tool-calling loop of a run, written for workflow code: deterministic, no I/O of its own.
// Every model call and every tool call goes through `steps`, which a workflow backs with
// activities (each tool call its own activity with its own timeout), so a crash resumes the loop
// from history instead of repeating tool calls. At most MAX_TOOL_ITERATIONS model calls may ask
// for tools; then one last call without tools forces the answer. Usage of every call is summed.
// Calls whose binding needs approval wait together for people (`awaitApprovals`), while the
// turn's other calls run at once; the model gets all of the turn's results together.
import type { ChatMessage, ToolCall, ToolDefinition } from '../gateway/types.js';
import type { ConnectionTools, ToolBinding, ToolCallResult } from '../connectors/tool-use.js';

export const MAX_TOOL_ITERATIONS = 10;

export const FINAL_ANSWER_PROMPT = 'The tool budget of this run is used up. Answer now with what you have, without calling tools.';

export interface ModelStep {
  content: string | null;
  toolCalls: ToolCall[];
  tokensInput: number;
  tokensOutput: number;
  cost: number;
}

export interface ToolLoopSteps {
  /** One model call: the run's own prompt followed by `conversation`; `tools` null = no tools offered. */
  complete(conversation: ChatMessage[], tools: ToolDefinition[] | null): Promise<ModelStep>;
  callTool(binding: ToolBinding, argumentsJson: string): Promise<ToolCallResult>;
  /**
   * The turn's calls that need approval, waiting together; per call id, null (approved: call it)
   * or the text the model gets instead. Without it, every call runs at once.
   */
  awaitApprovals?(calls: ApprovalCall[]): Promise<Record<string, string | null>>;
}

export interface ApprovalCall {
  callId: string;
  binding: ToolBinding;
  arguments: string;
}

export interface ToolLoopResult {
  output: string;
  tokensInput: number;
  tokensOutput: number;
  cost: number;
  /** Tool calls made, unknown names included. */
  toolCalls: number;
}

export async function runToolCallingLoop(steps: ToolLoopSteps, tools: ConnectionTools, maxIterations = MAX_TOOL_ITERATIONS): Promise<ToolLoopResult> {
  const conversation: ChatMessage[] = [];
  const result: ToolLoopResult = { output: '', tokensInput: 0, tokensOutput: 0, cost: 0, toolCalls: 0 };
  const offered = tools.tools.length > 0 ? tools.tools : null;
  for (let iteration = 0; iteration < maxIterations; iteration += 1) {
    const step = await steps.complete(conversation, offered);
    addUsage(result, step);
    if (step.toolCalls.length === 0) return { ...result, output: step.content ?? '' };
    conversation.push({ role: 'assistant', content: step.content, tool_calls: step.toolCalls });
    const gated = steps.awaitApprovals ? step.toolCalls.filter((call) => bindingOf(tools, call)?.approval === 'always') : [];
    const answers = gated.length === 0
      ? await Promise.all(step.toolCalls.map((call) => answerToolCall(steps, tools, call)))
      : await answerAfterApprovals(steps, tools, step.toolCalls, gated);
    result.toolCalls += step.toolCalls.length;
    conversation.push(...answers);
  }
  const final = await steps.complete([...conversation, { role: 'user', content: FINAL_ANSWER_PROMPT }], null);
  addUsage(result, final);
  return { ...result, output: final.content ?? '' };
}

/** The gated calls wait for their decisions while the others run at once. */
async function answerAfterApprovals(steps: ToolLoopSteps, tools: ConnectionTools, calls: ToolCall[], gated: ToolCall[]): Promise<ChatMessage[]> {
  const decisions = steps.awaitApprovals!(gated.map((call) => ({ callId: call.id, binding: bindingOf(tools, call)!, arguments: call.function.arguments })));
  return Promise.all(calls.map(async (call) => {
    if (!gated.includes(call)) return answerToolCall(steps, tools, call);
    const refusal = (await decisions)[call.id];
    return refusal === null || refusal === undefined ? answerToolCall(steps, tools, call) : { role: 'tool' as const, tool_call_id: call.id, content: refusal };
  }));
}

function bindingOf(tools: ConnectionTools, call: ToolCall): ToolBinding | undefined {
  const name = call.function.name;
  return Object.hasOwn(tools.bindings, name) ? tools.bindings[name] : undefined;
}

async function answerToolCall(steps: ToolLoopSteps, tools: ConnectionTools, call: ToolCall): Promise<ChatMessage> {
  const name = call.function.name;
  const binding = bindingOf(tools, call);
  const answer = binding
    ? (await steps.callTool(binding, call.function.arguments)).text
    : `Tool error: there is no tool named ${name}`;
  return { role: 'tool', tool_call_id: call.id, content: answer };
}

function addUsage(total: ToolLoopResult, step: ModelStep): void {
  total.tokensInput += step.tokensInput;
  total.tokensOutput += step.tokensOutput;
  total.cost += step.cost;
}
