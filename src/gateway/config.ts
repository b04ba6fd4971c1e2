// The gateway config: providers, models (ordered failover targets, prices, output limit) and tiers.
// Read from GATEWAY_CONFIG (JSON or YAML, format in docs/configuration.md, "Gateway config file"; told apart by content,
// not by the file name) with ${VAR} taken from the environment; without a file, the built-in
// `dev` provider plus OpenAI and Anthropic when their keys are set. A bad file fails start-up
// with a message naming the file, the line and the field.
import fs from 'node:fs';
import YAML, { LineCounter } from 'yaml';
import { z } from 'zod';

export const TIERS = ['standard', 'premium', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const PROVIDER_TYPES = ['openai', 'anthropic', 'dev'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** chat: served by /v1/chat/completions; embedding: by /v1/embeddings. */
export const MODEL_MODES = ['chat', 'embedding'] as const;
export type ModelMode = (typeof MODEL_MODES)[number];
/** Provider types that serve embeddings (Anthropic has no embeddings API). */
const EMBEDDING_PROVIDER_TYPES: readonly string[] = ['openai', 'dev'];

const providerSchema = z.object({
  id: z.string().min(1),
  type: z.enum(PROVIDER_TYPES),
  baseUrl: z.url().optional(),
  apiKey: z.string().optional(),
  timeoutMs: z.number().int().positive().default(60_000),
  /** OpenAI-compatible upstreams: the request field of the output bound (OpenAI's reasoning models accept only max_completion_tokens). */
  maxTokensParam: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
});

const targetSchema = z.object({
  provider: z.string().min(1),
  upstreamModel: z.string().min(1),
  /** Share of the model's traffic (weighted random among healthy targets); all or none of a model's targets carry one. */
  weight: z.number().positive().max(1_000_000).optional(),
});

const modelSchema = z.object({
  id: z.string().min(1),
  targets: z.array(targetSchema).min(1),
  inputPricePer1M: z.number().nonnegative().default(0),
  outputPricePer1M: z.number().nonnegative().default(0),
  maxOutputTokens: z.number().int().positive().optional(),
  mode: z.enum(MODEL_MODES).default('chat'),
  /** Default response-cache lifetime for requests without Cache-Control; 0 = only when asked. */
  cacheTtlSeconds: z.number().int().nonnegative().max(86_400).default(0),
  /** USD per 1M prompt-cache reads; absent = the answering provider's usual rate (pricing.ts: anthropic 0.1x input, openai 0.5x). */
  cacheReadPricePer1M: z.number().nonnegative().optional(),
  /** USD per 1M prompt-cache writes with the 5-minute TTL; absent = anthropic 1.25x input, openai the input price. */
  cacheWritePricePer1M: z.number().nonnegative().optional(),
  /** USD per 1M prompt-cache writes with Anthropic's 1-hour TTL; absent = 2x input. */
  cacheWrite1hPricePer1M: z.number().nonnegative().optional(),
  /** Models (bigger context windows) a context-length error moves on to, in order, before the first byte. */
  contextWindowFallbacks: z.array(z.string().min(1)).optional(),
  /**
   * Prompt caching the gateway adds: `auto` puts cache breakpoints (end of the tools, of the system
   * prompt, the last user turn) on a request to an Anthropic upstream whose client set none
   * (prompt-cache.ts); `off` sends what the client set, nothing more.
   */
  promptCaching: z.enum(['off', 'auto']).default('off'),
});

const breakerSchema = z.object({
  /** Consecutive failures that open a target's circuit. */
  failureThreshold: z.number().int().positive().default(3),
  /** How long an open circuit skips the target. */
  cooldownMs: z.number().int().positive().default(30_000),
  /** Longest Retry-After the gateway waits for before retrying the last target once. */
  maxRetryAfterWaitMs: z.number().int().nonnegative().default(1_000),
});

const gatewayConfigSchema = z
  .object({
    providers: z.array(providerSchema).min(1),
    models: z.array(modelSchema).min(1),
    tiers: z.partialRecord(z.enum(TIERS), z.array(z.string().min(1)).min(1)).default({}),
    breaker: breakerSchema.default({ failureThreshold: 3, cooldownMs: 30_000, maxRetryAfterWaitMs: 1_000 }),
    /** Keep prompt text in the audit log (off by default: audit records carry no prompt text). */
    auditPromptText: z.boolean().default(false),
  })
  .superRefine((config, ctx) => {
    const providerIds = new Set<string>();
    const providerTypes = new Map(config.providers.map((provider) => [provider.id, provider.type]));
    config.providers.forEach((provider, index) => {
      if (providerIds.has(provider.id)) {
        ctx.addIssue({ code: 'custom', path: ['providers', index, 'id'], message: `duplicate provider id "${provider.id}"` });
      }
      providerIds.add(provider.id);
    });
    const modelIds = new Set<string>();
    config.models.forEach((model, index) => {
      if (modelIds.has(model.id)) {
        ctx.addIssue({ code: 'custom', path: ['models', index, 'id'], message: `duplicate model id "${model.id}"` });
      }
      if ((TIERS as readonly string[]).includes(model.id)) {
        ctx.addIssue({ code: 'custom', path: ['models', index, 'id'], message: 'a model id cannot be a tier name' });
      }
      modelIds.add(model.id);
      const weighted = model.targets.filter((target) => target.weight !== undefined).length;
      if (weighted > 0 && weighted < model.targets.length) {
        const unweighted = model.targets.findIndex((target) => target.weight === undefined);
        ctx.addIssue({
          code: 'custom',
          path: ['models', index, 'targets', unweighted, 'weight'],
          message: 'either every target of a model has a weight or none has',
        });
      }
      model.targets.forEach((target, targetIndex) => {
        if (!providerIds.has(target.provider)) {
          ctx.addIssue({
            code: 'custom',
            path: ['models', index, 'targets', targetIndex, 'provider'],
            message: `unknown provider "${target.provider}"`,
          });
        } else if (model.mode === 'embedding' && !EMBEDDING_PROVIDER_TYPES.includes(providerTypes.get(target.provider)!)) {
          ctx.addIssue({
            code: 'custom',
            path: ['models', index, 'targets', targetIndex, 'provider'],
            message: `provider "${target.provider}" does not serve embeddings (openai or dev do)`,
          });
        }
      });
    });
    const modes = new Map(config.models.map((model) => [model.id, model.mode]));
    config.models.forEach((model, index) => {
      model.contextWindowFallbacks?.forEach((fallback, fallbackIndex) => {
        const path = ['models', index, 'contextWindowFallbacks', fallbackIndex];
        if (!modelIds.has(fallback)) ctx.addIssue({ code: 'custom', path, message: `unknown model "${fallback}"` });
        else if (fallback === model.id) ctx.addIssue({ code: 'custom', path, message: 'a model cannot fall back to itself' });
        else if (modes.get(fallback) !== model.mode) ctx.addIssue({ code: 'custom', path, message: 'a fallback must be of the same mode (chat or embedding)' });
      });
    });
    for (const [tier, models] of Object.entries(config.tiers)) {
      models?.forEach((modelId, index) => {
        if (!modelIds.has(modelId)) {
          ctx.addIssue({ code: 'custom', path: ['tiers', tier, index], message: `unknown model "${modelId}"` });
        } else if (modes.get(modelId) !== modes.get(models[0]!)) {
          ctx.addIssue({ code: 'custom', path: ['tiers', tier, index], message: 'the models of a tier must share one mode (chat or embedding)' });
        }
      });
    }
  });

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
export type ProviderConfig = GatewayConfig['providers'][number];
export type ModelConfig = GatewayConfig['models'][number];
export type BreakerConfig = GatewayConfig['breaker'];

export class GatewayConfigError extends Error {
  constructor(
    readonly source: string,
    readonly field: string,
    readonly detail: string,
    /** The field's path in the document, to find its line. */
    readonly path: readonly PropertyKey[] = [],
  ) {
    super(`Invalid gateway config ${source}: ${field}: ${detail}`);
    this.name = 'GatewayConfigError';
  }
}

const DEFAULT_BASE_URLS: Record<Exclude<ProviderType, 'dev'>, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

/** The deterministic local responder's model: answers without any network. */
export const DEV_MODEL_ID = 'dev-echo';
/** The local responder's embedding model: deterministic vectors from the text, no network. */
export const DEV_EMBEDDING_MODEL_ID = 'dev-embedding';

/** Replaces ${VAR} in every string of a parsed document; a missing variable is an error. */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv, source: string, at: string[] = []): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
      const found = env[name];
      if (found === undefined) throw new GatewayConfigError(source, formatPath(at), `environment variable ${name} is not set`, at);
      return found;
    });
  }
  if (Array.isArray(value)) return value.map((item, index) => substituteEnv(item, env, source, [...at, String(index)]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substituteEnv(item, env, source, [...at, key])]),
    );
  }
  return value;
}

/** Validates a parsed document (after env substitution) and fills in provider defaults. */
export function parseGatewayConfig(document: unknown, source = 'document'): GatewayConfig {
  const parsed = gatewayConfigSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GatewayConfigError(source, formatPath(issue?.path ?? []), issue?.message ?? 'invalid', issue?.path ?? []);
  }
  const config = parsed.data;
  config.providers = config.providers.map((provider) =>
    provider.type === 'dev' || provider.baseUrl ? provider : { ...provider, baseUrl: DEFAULT_BASE_URLS[provider.type] },
  );
  return config;
}

/** JSON when the text starts (after a BOM and blanks) with `{` or `[`, else YAML. */
export function detectConfigFormat(text: string): 'json' | 'yaml' {
  return /^\uFEFF?\s*[{[]/.test(text) ? 'json' : 'yaml';
}

/** 1-based line and column of a character offset. */
function lineAt(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, col: offset - before.lastIndexOf('\n') };
}

/** Parses the text in its detected format; a syntax error names `file:line:col`. */
function parseConfigText(file: string, text: string): unknown {
  const format = detectConfigFormat(text);
  if (format === 'json') {
    try {
      return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
    } catch (error) {
      const message = (error as Error).message;
      // V8 reports a character offset ("... in JSON at position 42"), or nothing at the very end.
      const position = /at position (\d+)/.exec(message);
      const offset = position ? Number(position[1]) + (text.startsWith('\uFEFF') ? 1 : 0) : text.length;
      const { line, col } = lineAt(text, offset);
      throw new GatewayConfigError(`${file}:${line}:${col}`, 'file', `not valid JSON (detected from the content): ${message.replace(/ in JSON at position \d+.*$/, '')}`);
    }
  }
  const lineCounter = new LineCounter();
  const document = YAML.parseDocument(text, { lineCounter, prettyErrors: false });
  const error = document.errors[0];
  if (error) {
    const at = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
    throw new GatewayConfigError(`${file}:${at.line}:${at.col}`, 'file', `not valid YAML (detected from the content): ${error.message.split('\n')[0]}`);
  }
  return document.toJS() as unknown;
}

/**
 * The line of the field a validation error names: YAML parses JSON too, so one locator serves
 * both formats; a missing field points at its parent.
 */
function locateField(text: string, at: readonly PropertyKey[]): number | undefined {
  const lineCounter = new LineCounter();
  const document = YAML.parseDocument(text, { lineCounter });
  for (let length = at.length; length >= 0; length--) {
    const node = length === 0 ? document.contents : document.getIn(at.slice(0, length) as (string | number)[], true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range) return lineCounter.linePos(range[0]).line;
  }
  return undefined;
}

export function readGatewayConfigFile(file: string, env: NodeJS.ProcessEnv): GatewayConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new GatewayConfigError(file, 'file', (error as Error).message);
  }
  const document = parseConfigText(file, text);
  try {
    return parseGatewayConfig(substituteEnv(document, env, file), file);
  } catch (error) {
    if (!(error instanceof GatewayConfigError)) throw error;
    const line = locateField(text, error.path);
    throw line === undefined ? error : new GatewayConfigError(`${file}:${line}`, error.field, error.detail, error.path);
  }
}

/** Without a config file: the dev responder on every tier, plus OpenAI/Anthropic when keyed. */
export function defaultGatewayConfig(keys: { openaiApiKey?: string | undefined; anthropicApiKey?: string | undefined }): GatewayConfig {
  const providers: unknown[] = [{ id: 'dev', type: 'dev' }];
  const models: unknown[] = [
    // Nominal prices so cost accounting is visible in development; nothing is billed by anyone.
    { id: DEV_MODEL_ID, targets: [{ provider: 'dev', upstreamModel: DEV_MODEL_ID }], inputPricePer1M: 1, outputPricePer1M: 2, maxOutputTokens: 4096 },
    { id: DEV_EMBEDDING_MODEL_ID, targets: [{ provider: 'dev', upstreamModel: DEV_EMBEDDING_MODEL_ID }], inputPricePer1M: 0.1, mode: 'embedding' },
  ];
  if (keys.openaiApiKey) {
    providers.push({ id: 'openai', type: 'openai', apiKey: keys.openaiApiKey });
    models.push(
      { id: 'gpt-4o-mini', targets: [{ provider: 'openai', upstreamModel: 'gpt-4o-mini' }], inputPricePer1M: 0.15, outputPricePer1M: 0.6, maxOutputTokens: 16_384 },
      { id: 'gpt-4o', targets: [{ provider: 'openai', upstreamModel: 'gpt-4o' }], inputPricePer1M: 2.5, outputPricePer1M: 10, maxOutputTokens: 16_384 },
      { id: 'text-embedding-3-small', targets: [{ provider: 'openai', upstreamModel: 'text-embedding-3-small' }], inputPricePer1M: 0.02, mode: 'embedding' },
    );
  }
  if (keys.anthropicApiKey) {
    providers.push({ id: 'anthropic', type: 'anthropic', apiKey: keys.anthropicApiKey });
    models.push(
      { id: 'claude-3-5-haiku-latest', targets: [{ provider: 'anthropic', upstreamModel: 'claude-3-5-haiku-latest' }], inputPricePer1M: 0.8, outputPricePer1M: 4, maxOutputTokens: 8192 },
      { id: 'claude-sonnet-4-0', targets: [{ provider: 'anthropic', upstreamModel: 'claude-sonnet-4-0' }], inputPricePer1M: 3, outputPricePer1M: 15, maxOutputTokens: 8192 },
    );
  }
  // Tiers go to the keyed providers; the dev responder serves them only when none is keyed, so
  // an outage of a real provider never silently turns into echo answers.
  const keyedFast = [keys.openaiApiKey && 'gpt-4o-mini', keys.anthropicApiKey && 'claude-3-5-haiku-latest'].filter(Boolean);
  const keyedSmart = [keys.openaiApiKey && 'gpt-4o', keys.anthropicApiKey && 'claude-sonnet-4-0'].filter(Boolean);
  const fast = keyedFast.length > 0 ? keyedFast : [DEV_MODEL_ID];
  const smart = keyedSmart.length > 0 ? keyedSmart : [DEV_MODEL_ID];
  return parseGatewayConfig({ providers, models, tiers: { standard: fast, premium: smart, enterprise: smart } }, 'built-in defaults');
}

export function loadGatewayConfig(options: {
  file: string | undefined;
  env: NodeJS.ProcessEnv;
  openaiApiKey?: string | undefined;
  anthropicApiKey?: string | undefined;
}): GatewayConfig {
  return options.file ? readGatewayConfigFile(options.file, options.env) : defaultGatewayConfig(options);
}

function formatPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((out, segment) => {
    if (typeof segment === 'number' || /^\d+$/.test(String(segment))) return `${out}[${String(segment)}]`;
    return out ? `${out}.${String(segment)}` : String(segment);
  }, '') || '(root)';
}
