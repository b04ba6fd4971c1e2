import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolDefinition } from '../gateway/types.js';
import { FINAL_ANSWER_PROMPT, MAX_TOOL_ITERATIONS, runToolCallingLoop, type ModelStep, type ToolLoopSteps } from './tool-loop.js';
import type { ConnectionTools } from '../connectors/tool-use.js';

const tools: ConnectionTools = {
  tools: [{ type: 'function', function: { name: 'calc__add', parameters: { type: 'object' } } }],
  bindings: { calc__add: { connectionId: 'c1', toolId: 'calc', toolName: 'add' } },
  unavailable: [],
};

function step(partial: Partial<ModelStep>): ModelStep {
  return { content: null, toolCalls: [], tokensInput: 10, tokensOutput: 5, cost: 0.5, ...partial };
}

function callAdd(id: string, name = 'calc__add') {
  return { id, type: 'function' as const, function: { name, arguments: '{"a":1,"b":2}' } };
}

/** Steps that answer from a script and record what they were asked. */
function scripted(replies: ModelStep[]) {
  const modelCalls: { conversation: ChatMessage[]; tools: ToolDefinition[] | null }[] = [];
  const toolCalls: { toolName: string; args: string }[] = [];
  const steps: ToolLoopSteps = {
    async complete(conversation, offered) {
      modelCalls.push({ conversation: structuredClone(conversation), tools: offered });
      return replies.shift() ?? step({ toolCalls: [callAdd(`call-${modelCalls.length}`)] });
    },
    async callTool(binding, args) {
      toolCalls.push({ toolName: binding.toolName, args });
      return { text: '3', isError: false, truncated: false };
    },
  };
  return { steps, modelCalls, toolCalls };
}

describe('runToolCallingLoop', () => {
  it('returns the first answer when the model calls no tool', async () => {
    const { steps, modelCalls } = scripted([step({ content: 'done' })]);
    const result = await runToolCallingLoop(steps, tools);
    expect(result).toEqual({ output: 'done', tokensInput: 10, tokensOutput: 5, cost: 0.5, toolCalls: 0 });
    expect(modelCalls[0]!.tools).toEqual(tools.tools);
  });

  it('runs the requested tools, feeds their results back and sums the usage of every step', async () => {
    const { steps, modelCalls, toolCalls } = scripted([
      step({ toolCalls: [callAdd('a'), callAdd('b')] }),
      step({ content: 'The sum is 3' }),
    ]);
    const result = await runToolCallingLoop(steps, tools);
    expect(result).toEqual({ output: 'The sum is 3', tokensInput: 20, tokensOutput: 10, cost: 1, toolCalls: 2 });
    expect(toolCalls).toEqual([{ toolName: 'add', args: '{"a":1,"b":2}' }, { toolName: 'add', args: '{"a":1,"b":2}' }]);
    expect(modelCalls[1]!.conversation).toEqual([
      { role: 'assistant', content: null, tool_calls: [callAdd('a'), callAdd('b')] },
      { role: 'tool', tool_call_id: 'a', content: '3' },
      { role: 'tool', tool_call_id: 'b', content: '3' },
    ]);
  });

  it('answers a call to an unknown function with an error instead of calling anything', async () => {
    const { steps, modelCalls, toolCalls } = scripted([step({ toolCalls: [callAdd('x', 'toString')] }), step({ content: 'ok' })]);
    await runToolCallingLoop(steps, tools);
    expect(toolCalls).toEqual([]);
    expect(modelCalls[1]!.conversation[1]).toEqual({ role: 'tool', tool_call_id: 'x', content: 'Tool error: there is no tool named toString' });
  });

  it(`stops after ${MAX_TOOL_ITERATIONS} tool rounds and asks once more without tools`, async () => {
    const { steps, modelCalls, toolCalls } = scripted([]);
    const result = await runToolCallingLoop(steps, tools);
    expect(modelCalls).toHaveLength(MAX_TOOL_ITERATIONS + 1);
    expect(toolCalls).toHaveLength(MAX_TOOL_ITERATIONS);
    const last = modelCalls.at(-1)!;
    expect(last.tools).toBeNull();
    expect(last.conversation.at(-1)).toEqual({ role: 'user', content: FINAL_ANSWER_PROMPT });
    expect(result.tokensInput).toBe(10 * (MAX_TOOL_ITERATIONS + 1));
  });

  it('offers no tools when none of the connectors is available', async () => {
    const { steps, modelCalls } = scripted([step({ content: 'plain' })]);
    await runToolCallingLoop(steps, { tools: [], bindings: {}, unavailable: [{ toolId: 'github', reason: 'no connection to github' }] });
    expect(modelCalls[0]!.tools).toBeNull();
  });
});
