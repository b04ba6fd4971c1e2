// The model the soak's automations and assistants call: an OpenAI-style chat completions server
// that asks for a tool when the request offers tools and has no tool result yet (`fixture-http__add`
// when the system prompt says "add", which the approval automations' policy holds for a person;
// `fixture-http__echo` otherwise), and answers in one line once a tool result is there (or when no
// tools are offered). Whole or streamed, as asked. Nothing is recorded: it runs for hours.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface ChatMessage {
  role: string;
  content?: unknown;
}

function replyOf(body: Record<string, unknown>): { content: string | null; toolCall?: { name: string; arguments: string } } {
  const messages = (body.messages as ChatMessage[] | undefined) ?? [];
  const tools = (body.tools as unknown[] | undefined) ?? [];
  if (tools.length === 0 || messages.some((message) => message.role === 'tool')) return { content: 'Done: the tool answered.' };
  const system = JSON.stringify(messages.find((message) => message.role === 'system')?.content ?? '');
  return system.includes('add')
    ? { content: null, toolCall: { name: 'fixture-http__add', arguments: '{"a": 2, "b": 40}' } }
    : { content: null, toolCall: { name: 'fixture-http__echo', arguments: '{"text": "soak"}' } };
}

function answer(body: Record<string, unknown>, res: http.ServerResponse): void {
  const reply = replyOf(body);
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  const toolCalls = reply.toolCall ? [{ id: `call_${id}`, type: 'function', function: reply.toolCall }] : undefined;
  const finish = toolCalls ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48 };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: String(body.model),
      choices: [{ index: 0, message: { role: 'assistant', content: reply.content, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason: finish }],
      usage,
    }));
    return;
  }
  const chunk = (delta: unknown, finishReason: string | null, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: String(body.model), choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: reply.content ?? '' }, null));
  if (toolCalls) res.write(chunk({ tool_calls: toolCalls.map((call, index) => ({ index, ...call })) }, null));
  res.write(chunk({}, finish));
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}

export async function startAgentUpstream(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // answered as a request without tools
      }
      answer(body, res);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
