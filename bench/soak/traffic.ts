// The soak's gateway traffic: an open loop at a steady rate (requests started on a clock, not when
// the previous ones answered), mixed across the wire formats: chat completions, Responses and
// Anthropic Messages, each whole and streamed; embeddings; stored responses (store: true, then read
// back with GET /v1/responses/{id}). A request the loop cannot start because MAX_IN_FLIGHT are
// still open is counted as `skipped` (the generator or the API fell behind): the achieved rate is
// what was answered. Errors are counted by kind: `<call> <status> <code>`, `<call> network`, or
// `<call> stream-incomplete` for a stream without its terminal event.
import { Pool } from 'undici';

const PROMPT = 'Say something short about soak tests.';
const MAX_IN_FLIGHT = 512;

interface Call {
  name: string;
  weight: number;
  method: 'GET' | 'POST';
  path: (state: TrafficState) => string | undefined;
  body?: () => string;
  /** A streamed answer must contain this, or it counts as incomplete. */
  terminal?: string;
  /** Reads what the answer says for the next calls (a stored response's id). */
  after?: (state: TrafficState, text: string) => void;
}

interface TrafficState {
  storedIds: string[];
}

const json = (value: unknown) => () => JSON.stringify(value);
const CALLS: Call[] = [
  { name: 'chat', weight: 18, method: 'POST', path: () => '/v1/chat/completions', body: json({ model: 'fake-model', messages: [{ role: 'user', content: PROMPT }] }) },
  { name: 'chat stream', weight: 14, method: 'POST', path: () => '/v1/chat/completions', body: json({ model: 'fake-model', stream: true, messages: [{ role: 'user', content: PROMPT }] }), terminal: '[DONE]' },
  { name: 'responses', weight: 10, method: 'POST', path: () => '/v1/responses', body: json({ model: 'fake-model', input: PROMPT, store: false }) },
  { name: 'responses stream', weight: 10, method: 'POST', path: () => '/v1/responses', body: json({ model: 'fake-model', input: PROMPT, store: false, stream: true }), terminal: 'response.completed' },
  { name: 'messages', weight: 10, method: 'POST', path: () => '/v1/messages', body: json({ model: 'fake-model', max_tokens: 100, messages: [{ role: 'user', content: PROMPT }] }) },
  { name: 'messages stream', weight: 10, method: 'POST', path: () => '/v1/messages', body: json({ model: 'fake-model', max_tokens: 100, stream: true, messages: [{ role: 'user', content: PROMPT }] }), terminal: 'message_stop' },
  { name: 'embeddings', weight: 14, method: 'POST', path: () => '/v1/embeddings', body: json({ model: 'text-embedding-3-small', input: PROMPT }) },
  {
    name: 'responses stored', weight: 7, method: 'POST', path: () => '/v1/responses', body: json({ model: 'fake-model', input: PROMPT }),
    after: (state, text) => {
      const id = (JSON.parse(text) as { id?: string }).id;
      if (id) state.storedIds.push(id);
      if (state.storedIds.length > 1000) state.storedIds.splice(0, 500);
    },
  },
  { name: 'responses get', weight: 7, method: 'GET', path: (state) => (state.storedIds.length ? `/v1/responses/${state.storedIds[Math.floor(Math.random() * state.storedIds.length)]}` : undefined) },
];

export interface TrafficReport {
  sent: number;
  answered: number;
  skipped: number;
  errors: Map<string, number>;
  byCall: Map<string, number>;
}

export interface Traffic {
  report: TrafficReport;
  /** Stops starting requests and waits for those in flight. */
  stop(): Promise<void>;
}

export function startTraffic(options: { origin: string; apiKey: string; rps: number }): Traffic {
  const pool = new Pool(options.origin, { connections: 128, pipelining: 1, keepAliveTimeout: 30_000 });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}`, 'x-api-key': options.apiKey, 'anthropic-version': '2023-06-01' };
  const report: TrafficReport = { sent: 0, answered: 0, skipped: 0, errors: new Map(), byCall: new Map() };
  const state: TrafficState = { storedIds: [] };
  const totalWeight = CALLS.reduce((sum, call) => sum + call.weight, 0);
  const fail = (kind: string) => report.errors.set(kind, (report.errors.get(kind) ?? 0) + 1);
  let inFlight = 0;
  const pending = new Set<Promise<void>>();

  const pick = (): Call => {
    let at = Math.random() * totalWeight;
    for (const call of CALLS) {
      at -= call.weight;
      if (at < 0) return call;
    }
    return CALLS[0]!;
  };

  const send = async (call: Call, path: string) => {
    try {
      const answer = await pool.request({ method: call.method, path, headers, body: call.body?.(), headersTimeout: 60_000, bodyTimeout: 60_000 });
      const text = await answer.body.text();
      if (answer.statusCode >= 400) {
        let code = '';
        try {
          const parsed = JSON.parse(text) as { error?: { code?: string; type?: string } };
          code = parsed.error?.code ?? parsed.error?.type ?? '';
        } catch {
          // not JSON
        }
        fail(`${call.name} ${answer.statusCode} ${code}`.trim());
      } else if (call.terminal && !text.includes(call.terminal)) {
        fail(`${call.name} stream-incomplete`);
      } else {
        report.answered += 1;
        report.byCall.set(call.name, (report.byCall.get(call.name) ?? 0) + 1);
        call.after?.(state, text);
      }
    } catch (error) {
      fail(`${call.name} network ${(error as { code?: string }).code ?? ''}`.trim());
    }
  };

  const started = Date.now();
  let due = 0;
  const tick = setInterval(() => {
    const target = Math.floor(((Date.now() - started) / 1000) * options.rps);
    while (due < target) {
      due += 1;
      if (inFlight >= MAX_IN_FLIGHT) {
        report.skipped += 1;
        continue;
      }
      const picked = pick();
      const pickedPath = picked.path(state);
      // A read before anything is stored is a chat call instead.
      const [chosen, path] = pickedPath ? [picked, pickedPath] : [CALLS[0]!, '/v1/chat/completions'];
      inFlight += 1;
      report.sent += 1;
      const request = send(chosen, path).finally(() => {
        inFlight -= 1;
        pending.delete(request);
      });
      pending.add(request);
    }
  }, 10);

  return {
    report,
    async stop() {
      clearInterval(tick);
      await Promise.all([...pending]);
      await pool.close();
    },
  };
}
