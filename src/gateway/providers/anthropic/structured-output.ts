// Structured output on Anthropic upstreams: the Messages API has no response_format, so a JSON
// schema (chat completions' `response_format`, the Responses API's `text.format`) goes up the
// usual way, as one more tool whose input_schema is the schema, forced when the caller has no
// tools of its own; the model's call of that tool comes back as the answer's text (its input as
// JSON), never as a tool call, plain or streamed.
import type { ChatCompletionRequest } from '../../types.js';

export interface StructuredOutputTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The tool that carries the request's JSON schema, or undefined when it asks for none. */
export function structuredOutputTool(request: Pick<ChatCompletionRequest, 'response_format'>): StructuredOutputTool | undefined {
  const format = request.response_format;
  if (format?.type !== 'json_schema') return undefined;
  return {
    name: format.json_schema.name,
    description: format.json_schema.description ?? 'Answer with this tool: its input is the answer, a JSON object matching the schema.',
    input_schema: format.json_schema.schema ?? { type: 'object' },
  };
}

/**
 * The tool choice with a structured-output tool: forced when it is the only tool, else the
 * caller's own choice stands (the model may call the caller's tools or answer through it).
 */
export function structuredToolChoice(tool: StructuredOutputTool, callerHasTools: boolean, callerChoice: unknown): unknown {
  return callerHasTools ? callerChoice : { type: 'tool', name: tool.name };
}

/** The stop reason once a structured-output call became text: the answer ended, no tool is waiting. */
export function structuredFinishReason(finishReason: string, otherToolCalls: number): string {
  return finishReason === 'tool_calls' && otherToolCalls === 0 ? 'stop' : finishReason;
}
