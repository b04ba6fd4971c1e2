// Data-loss prevention for chat requests and run text: detectors, the scanner and the
// per-organization policy. inspectRequest() is what the gateway calls before any upstream call:
// it scans every text of the request that leaves, as fields.ts lists them: message content
// (string or parts, image URLs included but not an image's own bytes), tool-call arguments, tool
// results, tool descriptions and parameter schemas, a structured-output schema, and the
// identifiers (names, ids, tool_choice, stop sequences), which are never masked: a finding in an
// identifier blocks.
// An earlier answer's thinking is scanned too but cannot be masked (its signature covers it): a
// mask finding leaves that turn's thinking out instead.
import { isImageDataUrl } from '../chat.schemas.js';
import type { ChatCompletionRequest, ChatMessage, ContentPart, DocumentPart, ReasoningBlock, ResponseFormat, ToolCall, ToolDefinition } from '../types.js';
import type { DetectorType } from './detectors.js';
import type { DlpPolicies, DlpPolicy } from './policy.js';
import { activeTypesOfCached, policySteps, runSteps, type ScanSteps } from './scanner.js';

export { DETECTOR_TYPES, type DetectorType } from './detectors.js';
export { CHAT_REQUEST_FIELDS, EMBEDDING_REQUEST_FIELDS, MESSAGES_REQUEST_FIELDS, RESPONSES_REQUEST_FIELDS, type FieldTreatment } from './fields.js';
export { DEFAULT_DLP_POLICY, DLP_ACTIONS, DlpPolicies, type DlpAction, type DlpPolicy, type DlpPolicyView } from './policy.js';
export { applyPolicy, applyPolicyAsync, maskText, scanText, scanTextAsync, type DlpFinding, type DlpTextResult } from './scanner.js';

export interface DlpVerdict {
  /** The messages to send upstream (masked where the policy says mask). */
  messages: ChatMessage[];
  /** The tools to offer upstream (masked likewise); absent when the request had none. */
  tools?: ToolDefinition[] | undefined;
  /** The structured-output format to send (its description and schema masked likewise); absent when the request had none. */
  response_format?: ResponseFormat | undefined;
  /** Detector type -> matches, over all texts; never the matched text. */
  findings: Record<string, number>;
  /** Types found whose action is block; non-empty means the request must not go upstream. */
  blocked: DetectorType[];
}

/**
 * Scans every text of the request that leaves for the upstream under the organization's policy.
 * A request whose texts are each shorter than a scan slice is scanned synchronously (such a scan
 * never pauses anyway); longer ones yield to the event loop as scanTextAsync does.
 */
export async function inspectRequest(
  policies: DlpPolicies,
  organizationId: string,
  request: InspectedRequest,
): Promise<DlpVerdict> {
  const policy = policies.cachedPolicy(organizationId) ?? (await policies.policyFor(organizationId));
  return runSteps(new PolicyScan(policy).request(request));
}

/** Scans every message's text (tool results and tool-call arguments included) under the organization's policy. */
export async function inspectMessages(policies: DlpPolicies, organizationId: string, messages: ChatMessage[]): Promise<DlpVerdict> {
  return inspectRequest(policies, organizationId, { messages });
}

export interface InspectedRequest {
  messages: ChatMessage[];
  tools?: ToolDefinition[] | undefined;
  tool_choice?: ChatCompletionRequest['tool_choice'] | undefined;
  /** Stop sequences: identifiers (a masked stop sequence would be another one). */
  stop?: readonly string[] | undefined;
  response_format?: ResponseFormat | undefined;
  /** Other identifiers that leave with the request (an embeddings request's `user`). */
  identifiers?: readonly string[] | undefined;
  /** Anthropic's metadata: its user_id an identifier. */
  metadata?: ChatCompletionRequest['metadata'];
  /** OpenAI's prompt-cache key: an identifier. */
  prompt_cache_key?: string | undefined;
}

/** Scans texts one by one under one policy, adding up what it found; returns each text masked. */
class PolicyScan {
  readonly findings: Record<string, number> = {};
  readonly blocked = new Set<DetectorType>();
  private readonly active: ReadonlySet<DetectorType>;

  /** `policy`: one of DlpPolicies' (never changed in place). */
  constructor(private readonly policy: DlpPolicy) {
    this.active = activeTypesOfCached(policy);
  }

  *request(request: InspectedRequest): ScanSteps<DlpVerdict> {
    if (typeof request.tool_choice === 'object') yield* this.identifier(request.tool_choice.function.name);
    for (const identifier of request.identifiers ?? []) yield* this.identifier(identifier);
    yield* this.identifier(request.metadata?.user_id ?? undefined);
    yield* this.identifier(request.prompt_cache_key);
    for (const sequence of request.stop ?? []) yield* this.identifier(sequence);
    const messages: ChatMessage[] = [];
    for (const message of request.messages) messages.push(yield* this.message(message));
    let tools: ToolDefinition[] | undefined;
    if (request.tools) {
      tools = [];
      for (const tool of request.tools) tools.push(yield* this.tool(tool));
    }
    const format = request.response_format && (yield* this.responseFormat(request.response_format));
    return { messages, ...(tools ? { tools } : {}), ...(format ? { response_format: format } : {}), findings: this.findings, blocked: [...this.blocked] };
  }

  /** A JSON schema format: its name an identifier, its description text, its schema JSON. */
  private *responseFormat(format: ResponseFormat): ScanSteps<ResponseFormat> {
    if (format.type !== 'json_schema') return format;
    const { json_schema: spec } = format;
    yield* this.identifier(spec.name);
    const description = spec.description === undefined ? undefined : yield* this.text(spec.description);
    const schema = spec.schema === undefined ? undefined : ((yield* this.json(spec.schema)) as Record<string, unknown>);
    if (description === spec.description && schema === spec.schema) return format;
    return { ...format, json_schema: { ...spec, ...(description !== undefined ? { description } : {}), ...(schema !== undefined ? { schema } : {}) } };
  }

  *text(text: string): ScanSteps<string> {
    if (text.length === 0) return text;
    const result = yield* policySteps(text, this.policy, this.active);
    for (const type in result.counts) this.findings[type] = (this.findings[type] ?? 0) + result.counts[type as DetectorType]!;
    for (const type of result.blocked) this.blocked.add(type);
    return result.text;
  }

  /** An id or a name: scanned, never masked (a masked id would no longer match), so a mask finding blocks too. */
  *identifier(text: string | undefined): ScanSteps<void> {
    if (!text) return;
    const result = yield* policySteps(text, this.policy, this.active);
    for (const type in result.counts) {
      this.findings[type] = (this.findings[type] ?? 0) + result.counts[type as DetectorType]!;
      const action = this.policy[type as DetectorType];
      if (action === 'block' || action === 'mask') this.blocked.add(type as DetectorType);
    }
  }

  *message(message: ChatMessage): ScanSteps<ChatMessage> {
    yield* this.identifier(message.name);
    yield* this.identifier(message.tool_call_id);
    let out = message;
    if (typeof message.content === 'string') {
      const content = yield* this.text(message.content);
      if (content !== message.content) out = { ...out, content };
    } else if (message.content) {
      const parts: ContentPart[] = [];
      for (const part of message.content) parts.push(yield* this.part(part));
      if (parts.some((part, i) => part !== message.content![i])) out = { ...out, content: parts };
    }
    if (message.tool_calls) {
      // Arguments are JSON text: a mask never holds a quote or backslash, so masked JSON stays JSON.
      const calls: ToolCall[] = [];
      for (const call of message.tool_calls) {
        yield* this.identifier(call.id);
        yield* this.identifier(call.function.name);
        const args = yield* this.text(call.function.arguments);
        calls.push(args === call.function.arguments ? call : { ...call, function: { ...call.function, arguments: args } });
      }
      if (calls.some((call, i) => call !== message.tool_calls![i])) out = { ...out, tool_calls: calls };
    }
    if (message.reasoning && !(yield* this.signed(message.reasoning))) {
      const { reasoning: _left, ...rest } = out;
      out = rest;
    }
    return out;
  }

  /**
   * Whether an earlier answer's thinking blocks may leave as they are. Their every string is
   * scanned as text (a block finding blocks the request), but the upstream's signature covers
   * them exactly: a mask finding makes them stay behind whole (false), not leave masked.
   */
  private *signed(blocks: ReasoningBlock[]): ScanSteps<boolean> {
    let intact = true;
    for (const block of blocks) {
      for (const text of block.type === 'thinking' ? [block.thinking, block.signature] : [block.data]) {
        if ((yield* this.text(text)) !== text) intact = false;
      }
    }
    return intact;
  }

  private *part(part: ContentPart): ScanSteps<ContentPart> {
    if (part.type === 'document') return yield* this.document(part);
    if (part.type === 'file') {
      // The file's bytes (a PDF) are not text; its name is.
      if (part.file.filename === undefined) return part;
      const filename = yield* this.text(part.file.filename);
      return filename === part.file.filename ? part : { ...part, file: { ...part.file, filename } };
    }
    if (part.type === 'image_url') {
      // An image's bytes (a data: URL of a PNG, JPEG, GIF or WebP) are not text; any other URL
      // leaves as text (the wire schemas take https ones only, which the provider fetches).
      if (isImageDataUrl(part.image_url.url)) return part;
      const url = yield* this.text(part.image_url.url);
      return url === part.image_url.url ? part : { ...part, image_url: { ...part.image_url, url } };
    }
    const text = yield* this.text(part.text);
    return text === part.text ? part : { ...part, text };
  }

  /** A Messages document: its title and context are text, so is a plain-text one's data; a PDF's bytes are not. */
  private *document(part: DocumentPart): ScanSteps<DocumentPart> {
    const title = part.title === undefined ? undefined : yield* this.text(part.title);
    const context = part.context === undefined ? undefined : yield* this.text(part.context);
    const data = part.source.type === 'text' ? yield* this.text(part.source.data) : part.source.data;
    if (title === part.title && context === part.context && data === part.source.data) return part;
    return {
      ...part,
      ...(title === undefined ? {} : { title }),
      ...(context === undefined ? {} : { context }),
      source: part.source.type === 'text' ? { ...part.source, data } : part.source,
    };
  }

  *tool(tool: ToolDefinition): ScanSteps<ToolDefinition> {
    yield* this.identifier(tool.function.name);
    const description = tool.function.description === undefined ? undefined : yield* this.text(tool.function.description);
    const parameters = tool.function.parameters === undefined ? undefined : ((yield* this.json(tool.function.parameters)) as Record<string, unknown>);
    if (description === tool.function.description && parameters === tool.function.parameters) return tool;
    return { ...tool, function: { ...tool.function, ...(description !== undefined ? { description } : {}), ...(parameters !== undefined ? { parameters } : {}) } };
  }

  /** A JSON value with every string (keys included) scanned; the same object when nothing changed. */
  private *json(value: unknown): ScanSteps<unknown> {
    if (typeof value === 'string') return yield* this.text(value);
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const item of value) items.push(yield* this.json(item));
      return items.some((item, i) => item !== value[i]) ? items : value;
    }
    if (value === null || typeof value !== 'object') return value;
    let changed = false;
    const entries: [string, unknown][] = [];
    for (const [key, item] of Object.entries(value)) {
      const newKey = yield* this.text(key);
      const newItem = yield* this.json(item);
      if (newKey !== key || newItem !== item) changed = true;
      entries.push([newKey, newItem]);
    }
    return changed ? Object.fromEntries(entries) : value;
  }
}
