// Weighted balancing: a model whose targets carry `weight` sends each request to one of its
// healthy targets at random in proportion to the weights; the others follow as failover, in a
// weighted random order too. Unweighted targets keep their configured order. A tier lists
// several models' targets one model after another; each model's group is balanced on its own.
import type { RouteTarget } from './router.js';

/** The order in which a request tries its (healthy) targets. */
export function balance(targets: RouteTarget[], random: () => number = Math.random): RouteTarget[] {
  if (!targets.some((target) => target.weight !== undefined)) return targets;
  const ordered: RouteTarget[] = [];
  let group: RouteTarget[] = [];
  const flush = () => {
    ordered.push(...weightedOrder(group, random));
    group = [];
  };
  for (const target of targets) {
    if (group.length > 0 && (target.weight === undefined || group[0]!.model !== target.model)) flush();
    if (target.weight === undefined) ordered.push(target);
    else group.push(target);
  }
  flush();
  return ordered;
}

/**
 * Weighted random order without replacement (Efraimidis-Spirakis: sort by u^(1/w)), so the
 * first target is target i with probability w_i / sum(w).
 */
export function weightedOrder(targets: RouteTarget[], random: () => number): RouteTarget[] {
  if (targets.length < 2) return targets;
  return targets
    .map((target) => ({ target, key: Math.pow(random(), 1 / (target.weight ?? 1)) }))
    .sort((a, b) => b.key - a.key)
    .map(({ target }) => target);
}
