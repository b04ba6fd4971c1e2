// What a calling API key may do on the gateway: use only the models and tiers on its allow-list
// (403 model_not_allowed, `param: "model"`), and hold its calls against its own monthly budget,
// the budgets of the keys it was created under, and the request's rate-limit counters (see
// billing/budget.ts). A limited key learns nothing of the models beyond its list: a model it may
// not use gets one answer whether or not the gateway has it, naming that model only.
import type { ReserveOptions } from '../billing/budget.js';
import { AppError } from '../errors.js';
import type { ModelMode } from './config.js';
import type { RouteTarget, Router } from './router.js';
import type { ChatContext } from './types.js';

/** Throws 403 model_not_allowed when the caller's key does not list `model` (a model id or a tier). */
export function assertModelAllowed(context: Pick<ChatContext, 'keyLimits'>, model: string): void {
  if (!isModelAllowed(context, model)) throw modelNotAllowed(model);
}

/**
 * The targets of `model` for this caller: its key's allow-list first, then the router, so a model
 * outside the list is 403 model_not_allowed whether it exists or not (a limited key cannot tell
 * which models the gateway has); an unknown model is the router's 400 for callers without a list.
 */
export function resolveForCaller(router: Pick<Router, 'resolve'>, context: Pick<ChatContext, 'keyLimits'>, model: string, mode: ModelMode): RouteTarget[] {
  assertModelAllowed(context, model);
  return router.resolve(model, mode);
}

/** The one answer to a model the caller's key may not use: the same for a model that does not exist. */
function modelNotAllowed(model: string): AppError {
  return new AppError('model_not_allowed', `This API key may not use the model '${model}'`, { param: 'model' });
}

/** Whether the caller's key may use `model` (GET /v1/models lists only those). */
export function isModelAllowed(context: Pick<ChatContext, 'keyLimits'>, model: string): boolean {
  const allowed = context.keyLimits?.models;
  return !allowed || allowed.includes(model);
}

/** The budget hold options of a call: the key with its own budget and those above it (its rate limits were counted before any work). */
export function holdOptionsOf(context: ChatContext): ReserveOptions {
  return {
    apiKey: context.apiKeyId ? { id: context.apiKeyId, monthlyBudget: context.keyLimits?.monthlyBudget ?? null, budgetsAbove: budgetsAbove(context) } : undefined,
  };
}

function budgetsAbove(context: ChatContext): { id: string; monthlyBudget: number }[] | undefined {
  const budgeted = context.keyLimits?.above?.flatMap((key) => (key.monthlyBudget === null ? [] : [{ id: key.id, monthlyBudget: key.monthlyBudget }]));
  return budgeted?.length ? budgeted : undefined;
}
