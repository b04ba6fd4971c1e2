// Routing: a model id or a tier name becomes the ordered list of targets to try, each carrying
// its model (prices, output limit) and provider. Unknown names are the caller's error (400).
import { badRequest } from '../errors.js';
import { TIERS, type GatewayConfig, type ModelConfig, type ModelMode, type ProviderConfig } from './config.js';

export interface RouteTarget {
  /** Identifies the target for its circuit breaker. */
  key: string;
  provider: ProviderConfig;
  model: ModelConfig;
  upstreamModel: string;
  /** Share of the model's traffic among its healthy targets (all or none of a model's targets have one). */
  weight?: number | undefined;
}

export interface Router {
  /** The targets of a model or tier served in `mode`; 400 naming `model` when unknown or of the other mode. */
  resolve(modelOrTier: string, mode: ModelMode): RouteTarget[];
  /** The targets of a model's contextWindowFallbacks, in order (none when it has none). */
  contextFallbacks(model: ModelConfig): RouteTarget[];
  /** Every model id and tier clients may send. */
  names(): string[];
  /** Every model id and tier with its mode and owner (the provider of its first target). */
  entries(): Array<{ id: string; mode: ModelMode; ownedBy: string }>;
}

const ROUTE_OF_MODE: Record<ModelMode, string> = { chat: '/v1/chat/completions', embedding: '/v1/embeddings' };

export function createRouter(config: GatewayConfig): Router {
  const providers = new Map(config.providers.map((p) => [p.id, p]));
  const targetsOf = (model: ModelConfig): RouteTarget[] =>
    model.targets.map((target) => ({
      key: `${target.provider}/${target.upstreamModel}`,
      provider: providers.get(target.provider)!,
      model,
      upstreamModel: target.upstreamModel,
      weight: target.weight,
    }));
  const routes = new Map<string, RouteTarget[]>();
  const models = new Map(config.models.map((m) => [m.id, m]));
  for (const model of config.models) routes.set(model.id, targetsOf(model));
  for (const tier of TIERS) {
    const names = config.tiers[tier];
    if (names) routes.set(tier, names.flatMap((name) => targetsOf(models.get(name)!)));
  }
  return {
    resolve(modelOrTier, mode) {
      const targets = routes.get(modelOrTier);
      if (!targets) throw badRequest(`The model '${modelOrTier}' does not exist or no provider serves it`, 'model');
      const actual = targets[0]!.model.mode;
      if (actual !== mode) {
        throw badRequest(`The model '${modelOrTier}' is a${actual === 'chat' ? ' chat' : 'n embedding'} model: use ${ROUTE_OF_MODE[actual]}`, 'model');
      }
      return targets;
    },
    contextFallbacks: (model) => (model.contextWindowFallbacks ?? []).flatMap((id) => routes.get(id) ?? []),
    names: () => [...routes.keys()],
    entries: () =>
      [...routes].map(([id, targets]) => ({
        id,
        mode: targets[0]!.model.mode,
        ownedBy: (TIERS as readonly string[]).includes(id) ? 'gateway' : targets[0]!.provider.id,
      })),
  };
}

/**
 * The output bound of a call when neither the request nor the model sets one (Anthropic requires
 * one anyway; OpenAI-compatible upstreams would otherwise answer up to the context window).
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/**
 * The output bound of one call: max_tokens, lowered to the model's limit, or the default. The
 * same number is sent upstream and reserved against the budget, so the answer cannot outgrow
 * its reservation.
 */
export function effectiveMaxTokens(requested: number | undefined, model: ModelConfig): number {
  const bound = requested ?? model.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  return model.maxOutputTokens === undefined ? bound : Math.min(bound, model.maxOutputTokens);
}
