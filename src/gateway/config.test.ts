import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { createLogger } from '../logger.js';
import { openSharedState } from '../redis.js';
import { BREAKER_CHANNEL, CircuitBreakers } from './breaker.js';
import { defaultGatewayConfig, detectConfigFormat, loadGatewayConfig, parseGatewayConfig, readGatewayConfigFile } from './config.js';
import { createRouter, DEFAULT_MAX_OUTPUT_TOKENS, effectiveMaxTokens } from './router.js';
import { SseParser } from './sse.js';
import { parseRetryAfter } from './transport.js';

const valid = {
  providers: [{ id: 'p', type: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: '${KEY}' }],
  models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u' }], maxOutputTokens: 100 }],
  tiers: { standard: ['m'] },
};

function write(name: string, text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gw-')), name);
  fs.writeFileSync(file, text);
  return file;
}

describe('gateway config', () => {
  it('reads YAML and JSON with ${VAR} from the environment', () => {
    const yaml = write('g.yaml', 'providers:\n  - { id: p, type: anthropic, apiKey: "${KEY}" }\nmodels:\n  - { id: m, targets: [{ provider: p, upstreamModel: u }] }\n');
    const config = readGatewayConfigFile(yaml, { KEY: 'secret' });
    expect(config.providers[0]).toMatchObject({ apiKey: 'secret', baseUrl: 'https://api.anthropic.com/v1', timeoutMs: 60_000 });
    expect(readGatewayConfigFile(write('g.json', JSON.stringify(valid)), { KEY: 'k' }).providers[0]?.apiKey).toBe('k');
  });

  it.each([
    [{ ...valid, models: [{ id: 'm', targets: [{ provider: 'nope', upstreamModel: 'u' }] }] }, 'models[0].targets[0].provider'],
    [{ ...valid, providers: [{ id: 'p', type: 'grpc' }] }, 'providers[0].type'],
    [{ ...valid, tiers: { standard: ['ghost'] } }, 'tiers.standard[0]'],
    [{ ...valid, models: [{ id: 'standard', targets: [{ provider: 'p', upstreamModel: 'u' }] }] }, 'models[0].id'],
    [{ ...valid, models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u' }], inputPricePer1M: -1 }] }, 'models[0].inputPricePer1M'],
    [{ ...valid, providers: [{ id: 'p', type: 'openai', maxTokensParam: 'max_output_tokens' }] }, 'providers[0].maxTokensParam'],
    [{ ...valid, models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u', weight: 0 }] }] }, 'models[0].targets[0].weight'],
    [{ ...valid, models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u', weight: -2 }] }] }, 'models[0].targets[0].weight'],
    [{ ...valid, models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u', weight: 3 }, { provider: 'p', upstreamModel: 'v' }] }] }, 'models[0].targets[1].weight'],
    [{ ...valid, models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u' }], cacheTtlSeconds: -1 }] }, 'models[0].cacheTtlSeconds'],
    [{ ...valid, models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u' }], mode: 'image' }] }, 'models[0].mode'],
    [{ ...valid, providers: [{ id: 'p', type: 'anthropic' }], models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u' }], mode: 'embedding' }] }, 'models[0].targets[0].provider'],
    [{ ...valid, models: [...valid.models, { id: 'e', targets: [{ provider: 'p', upstreamModel: 'u' }], mode: 'embedding' }], tiers: { standard: ['m', 'e'] } }, 'tiers.standard[1]'],
    [{ ...valid, models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u' }], contextWindowFallbacks: ['ghost'] }] }, 'models[0].contextWindowFallbacks[0]'],
    [{ ...valid, models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u' }], contextWindowFallbacks: ['m'] }] }, 'models[0].contextWindowFallbacks[0]'],
    [{ ...valid, models: [{ id: 'm', targets: [{ provider: 'p', upstreamModel: 'u' }], contextWindowFallbacks: ['e'] }, { id: 'e', targets: [{ provider: 'p', upstreamModel: 'u' }], mode: 'embedding' }] }, 'models[0].contextWindowFallbacks[0]'],
  ])('names the bad field (%#: %s)', (document, field) => {
    expect(() => parseGatewayConfig(document, 'f')).toThrow(`Invalid gateway config f: ${field}:`);
  });

  it('tells JSON from YAML by content, whatever the file is called', () => {
    const yamlText = 'providers:\n  - id: p\n    type: dev\nmodels:\n  - id: m\n    targets: [{ provider: p, upstreamModel: u }]\ntiers: { standard: [m] }\n';
    expect(detectConfigFormat(yamlText)).toBe('yaml');
    expect(detectConfigFormat('\uFEFF  \n{"providers": []}')).toBe('json');
    expect(readGatewayConfigFile(write('gateway.json', yamlText), {}).models[0]!.id).toBe('m');
    expect(readGatewayConfigFile(write('gateway', JSON.stringify(valid, null, 2)), { KEY: 'k' }).providers[0]!.apiKey).toBe('k');
  });

  it('names the file and line of a syntax error, JSON or YAML', () => {
    const json = write('gateway.yaml', '{\n  "providers": [\n    { "id": "p", }\n  ]\n}\n');
    expect(() => readGatewayConfigFile(json, {})).toThrow(new RegExp(`^Invalid gateway config ${json}:3:\\d+: file: not valid JSON`));
    const truncated = write('gateway.conf', '{\n  "providers": [\n');
    expect(() => readGatewayConfigFile(truncated, {})).toThrow(`Invalid gateway config ${truncated}:3:`);
    const yaml = write('gateway.json', 'providers:\n  - id: p\n    baseUrl: [x\nmodels: []\n');
    expect(() => readGatewayConfigFile(yaml, {})).toThrow(new RegExp(`^Invalid gateway config ${yaml}:\\d+:\\d+: file: not valid YAML`));
  });

  it('names the line of an invalid or missing field', () => {
    const yaml = write('gateway.yml', 'providers:\n  - id: p\n    type: nope\nmodels: []\ntiers: {}\n');
    expect(() => readGatewayConfigFile(yaml, {})).toThrow(`Invalid gateway config ${yaml}:3: providers[0].type:`);
    const json = write('gateway.json', JSON.stringify({ ...valid, models: [{ ...valid.models[0], maxOutputTokens: 'lots' }] }, null, 2));
    const line = fs.readFileSync(json, 'utf8').split('\n').findIndex((l) => l.includes('"lots"')) + 1;
    expect(() => readGatewayConfigFile(json, { KEY: 'k' })).toThrow(`Invalid gateway config ${json}:${line}: models[0].maxOutputTokens:`);
    const unset = write('gateway.yaml', 'providers:\n  - id: p\n    type: openai\n    apiKey: ${NOT_SET}\n');
    expect(() => readGatewayConfigFile(unset, {})).toThrow(`Invalid gateway config ${unset}:4: providers[0].apiKey: environment variable NOT_SET is not set`);
  });

  it('names a missing environment variable', () => {
    expect(() => readGatewayConfigFile(write('g.json', JSON.stringify(valid)), {})).toThrow(/providers\[0\]\.apiKey: environment variable KEY is not set/);
  });

  it('defaults to the dev responder on every tier, and to keyed providers when keys are set', () => {
    const dev = createRouter(defaultGatewayConfig({}));
    expect(dev.resolve('standard', 'chat').map((t) => t.provider.type)).toEqual(['dev']);
    const keyed = createRouter(loadGatewayConfig({ file: undefined, env: {}, openaiApiKey: 'sk', anthropicApiKey: 'ant' }));
    expect(keyed.resolve('standard', 'chat').map((t) => t.provider.id)).toEqual(['openai', 'anthropic']);
    expect(keyed.resolve('dev-echo', 'chat')).toHaveLength(1);
    expect(dev.resolve('dev-embedding', 'embedding')).toHaveLength(1);
    expect(() => dev.resolve('dev-embedding', 'chat')).toThrow(/embedding model: use \/v1\/embeddings/);
    expect(() => dev.resolve('standard', 'embedding')).toThrow(/chat model: use \/v1\/chat\/completions/);
    expect(dev.entries().find((entry) => entry.id === 'standard')).toEqual({ id: 'standard', mode: 'chat', ownedBy: 'gateway' });
  });
});

describe('routing', () => {
  it('caps max_tokens at the model limit', () => {
    const model = parseGatewayConfig(valid).models[0]!;
    expect(effectiveMaxTokens(500, model)).toBe(100);
    expect(effectiveMaxTokens(50, model)).toBe(50);
    expect(effectiveMaxTokens(undefined, model)).toBe(100);
    expect(effectiveMaxTokens(undefined, { ...model, maxOutputTokens: undefined })).toBe(DEFAULT_MAX_OUTPUT_TOKENS);
    expect(effectiveMaxTokens(50_000, { ...model, maxOutputTokens: undefined })).toBe(50_000);
  });
});

describe('circuit breaker', () => {
  it('opens after the threshold, for the cooldown, and re-opens on the next failure', () => {
    const clock = new ManualClock();
    const breakers = new CircuitBreakers({ failureThreshold: 2, cooldownMs: 1000, maxRetryAfterWaitMs: 0 }, clock);
    breakers.recordFailure('t');
    expect(breakers.isAvailable('t')).toBe(true);
    breakers.recordFailure('t');
    expect(breakers.isAvailable('t')).toBe(false);
    expect(breakers.msUntilAvailable(['t'])).toBe(1000);
    clock.advance(1000);
    expect(breakers.isAvailable('t')).toBe(true);
    breakers.recordFailure('t');
    expect(breakers.isAvailable('t')).toBe(false);
    clock.advance(1000);
    breakers.recordSuccess('t');
    breakers.recordFailure('t');
    expect(breakers.isAvailable('t')).toBe(true);
  });

  it('keeps a target aside for its Retry-After, bounded', () => {
    const clock = new ManualClock();
    const breakers = new CircuitBreakers({ failureThreshold: 5, cooldownMs: 1000, maxRetryAfterWaitMs: 0 }, clock);
    breakers.recordFailure('t', 3_600_000);
    expect(breakers.msUntilAvailable(['t'])).toBe(60_000);
  });

  it('shares failures and recoveries between instances over pub/sub, and a healthy success publishes nothing', async () => {
    const clock = new ManualClock();
    const shared = await openSharedState({}, createLogger({ level: 'silent' }));
    const published: string[] = [];
    await shared.subscribe(BREAKER_CHANNEL, (message) => published.push(message));
    const config = { failureThreshold: 2, cooldownMs: 1000, maxRetryAfterWaitMs: 0 };
    const [one, two] = [new CircuitBreakers(config, clock), new CircuitBreakers(config, clock)];
    await one.share(shared);
    await two.share(shared);
    one.recordSuccess('t');
    expect(published).toHaveLength(0);
    one.recordFailure('t');
    two.recordFailure('t');
    await new Promise((resolve) => setImmediate(resolve));
    expect(one.isAvailable('t')).toBe(false);
    expect(two.isAvailable('t')).toBe(false);
    clock.advance(1000);
    two.recordSuccess('t');
    one.recordFailure('t');
    expect(one.isAvailable('t')).toBe(true); // the success reset the count everywhere
    await shared.close();
  });
});

describe('wire helpers', () => {
  it('parses SSE split at any byte', () => {
    const parser = new SseParser();
    const text = 'event: a\ndata: {"x":1}\n\n: comment\ndata: [DONE]\r\n\r\n';
    const events = [...Buffer.from(text)].flatMap((byte) => parser.push(Uint8Array.of(byte)));
    expect(events).toEqual([{ event: 'a', data: '{"x":1}' }, { data: '[DONE]' }]);
  });

  it('parses Retry-After as seconds, HTTP date or retry-after-ms', () => {
    expect(parseRetryAfter({ 'retry-after': '2' })).toBe(2000);
    expect(parseRetryAfter({ 'retry-after-ms': '150' })).toBe(150);
    expect(parseRetryAfter({ 'retry-after': new Date(10_000).toUTCString() }, 4_000)).toBe(6000);
    expect(parseRetryAfter({ 'retry-after': 'soon' })).toBeUndefined();
    expect(parseRetryAfter({})).toBeUndefined();
  });
});
