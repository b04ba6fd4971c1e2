import { describe, expect, it } from 'vitest';
import { balance } from './balance.js';
import type { ModelConfig } from './config.js';
import type { RouteTarget } from './router.js';

const model = (id: string) => ({ id }) as ModelConfig;
const target = (key: string, m: ModelConfig, weight?: number): RouteTarget => ({ key, model: m, provider: { id: key } as RouteTarget['provider'], upstreamModel: key, weight });

/** A deterministic generator (mulberry32) so the distribution check cannot flake. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('balance', () => {
  it('keeps unweighted targets in their configured order', () => {
    const m = model('m');
    const targets = [target('a', m), target('b', m), target('c', m)];
    expect(balance(targets, () => 0.5)).toBe(targets);
  });

  it('picks the first target in proportion to the weights (chi-square, 3 weights, 20,000 draws)', () => {
    const m = model('m');
    const targets = [target('a', m, 3), target('b', m, 1), target('c', m, 2)];
    const random = seeded(42);
    const counts = new Map<string, number>();
    const draws = 20_000;
    for (let i = 0; i < draws; i++) {
      const first = balance(targets, random)[0]!.key;
      counts.set(first, (counts.get(first) ?? 0) + 1);
    }
    const expected = { a: draws / 2, b: draws / 6, c: draws / 3 };
    const chiSquare = Object.entries(expected).reduce((sum, [key, e]) => sum + ((counts.get(key) ?? 0) - e) ** 2 / e, 0);
    // 2 degrees of freedom: P(chi2 > 13.8) = 0.001.
    expect(chiSquare).toBeLessThan(13.8);
  });

  it('keeps every target as failover, each once', () => {
    const m = model('m');
    const targets = [target('a', m, 1), target('b', m, 1), target('c', m, 1)];
    const order = balance(targets, seeded(7));
    expect(order.map((t) => t.key).sort()).toEqual(['a', 'b', 'c']);
  });

  it("balances each model's group of a tier on its own, models staying in order", () => {
    const first = model('first');
    const second = model('second');
    const targets = [target('a1', first, 1), target('a2', first, 1), target('b1', second), target('c1', model('third'), 1), target('c2', model('third'), 1)];
    targets[4]!.model = targets[3]!.model;
    for (let seed = 0; seed < 50; seed++) {
      const keys = balance(targets, seeded(seed)).map((t) => t.key);
      expect(keys.slice(0, 2).sort()).toEqual(['a1', 'a2']);
      expect(keys[2]).toBe('b1');
      expect(keys.slice(3).sort()).toEqual(['c1', 'c2']);
    }
  });
});
