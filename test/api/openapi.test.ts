// The OpenAPI document: served without authentication, OpenAPI 3.1, internally consistent (every
// $ref resolves, path templates and parameters agree, error responses carry only codes of their
// status), and in parity with the Express routes: a route the document lacks, or an operation
// no route serves, fails here.
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.js';
import { apiOperations } from '../../src/api/openapi/document.js';
import { expressPath } from '../../src/api/openapi/registry.js';
import { ERROR_STATUS } from '../../src/errors.js';
import { call } from '../helpers/http.js';
import { startStack, type Stack } from '../helpers/stack.js';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: RouterLayer[] };
  rawPath?: unknown;
}

/** `GET /v1/skills/:id` for every route layer of the app, nested routers included. */
function expressRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const [method, enabled] of Object.entries(layer.route.methods)) {
          if (enabled && method !== '_all') found.push(`${method.toUpperCase()} ${prefix}${layer.route.path}`);
        }
      } else if (layer.handle.stack) {
        const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        walk(layer.handle.stack, prefix + mount);
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, '');
  return found.sort();
}

type Json = Record<string, any>;

let stack: Stack;
let document: Json;

beforeAll(async () => {
  stack = await startStack({ worker: false });
  const response = await call<Json>(stack.api.url, 'GET', '/v1/openapi.json');
  expect(response.status).toBe(200);
  document = response.body;
});

afterAll(async () => {
  await stack?.stop();
});

describe('GET /v1/openapi.json', () => {
  it('serves an OpenAPI 3.1 document without authentication', async () => {
    const response = await call(stack.api.url, 'GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBeTruthy();
    expect(Object.keys(document.paths).length).toBeGreaterThan(40);
  });

  it('is valid against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors, JSON.stringify(result.errors)?.slice(0, 2000)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    // The validator does reject a broken document: a parameter in no valid location.
    const broken = structuredClone(document);
    broken.paths['/v1/skills/{id}'].get.parameters[0].in = 'body';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('lists exactly the routes the Express app serves', () => {
    const routes = expressRoutes(buildApp(stack.runtime));
    const documented = apiOperations.map((operation) => `${operation.method.toUpperCase()} ${expressPath(operation.path)}`).sort();
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((route) => !documented.includes(route)), 'routes missing from the document').toEqual([]);
    expect(documented.filter((operation) => !routes.includes(operation)), 'documented operations without a route').toEqual([]);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('documents every operation with a summary, a success response and its error responses', () => {
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries<Json>(document.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        expect(operationIds.has(operation.operationId), `duplicate operationId ${operation.operationId}`).toBe(false);
        operationIds.add(operation.operationId);
        const statuses = Object.keys(operation.responses).map(Number);
        expect(statuses.some((status) => status < 400), `${method} ${path} has a success response`).toBe(true);
        expect(statuses, `${method} ${path} documents 500`).toContain(500);
        // Path parameters and the template agree.
        const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
        const declared = (operation.parameters ?? []).filter((p: Json) => p.in === 'path').map((p: Json) => p.name).sort();
        expect(declared, `${method} ${path} path parameters`).toEqual(templated);
        for (const status of statuses.filter((s) => s >= 400)) {
          const { allOf } = operation.responses[status].content['application/json'].schema;
          if (allOf[0].$ref === '#/components/schemas/AnthropicError') {
            // The Messages routes: Anthropic's error types under Anthropic's statuses.
            expect(allOf[1].properties.error.properties.type.enum.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
            continue;
          }
          const codes: string[] = allOf[1].properties.error.properties.code.enum;
          expect(codes.length).toBeGreaterThan(0);
          for (const code of codes) expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${code} under ${status}`).toBe(status);
        }
      }
    }
  });

  it('documents authentication: public endpoints have no security requirement, the others require a key or session', () => {
    expect(document.paths['/v1/webhooks/{webhookId}'].post.security).toEqual([]);
    expect(document.paths['/v1/auth/login'].post.security).toEqual([]);
    expect(document.paths['/v1/openapi.json'].get.security).toEqual([]);
    expect(document.paths['/v1/skills'].get.security).toEqual([{ apiKey: [] }, { sessionCookie: [] }]);
    expect(Object.keys(document.paths['/v1/skills'].get.responses)).toEqual(expect.arrayContaining(['200', '401', '429']));
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes request bodies from the zod schemas the routes parse', () => {
    const createSkill = document.components.schemas.CreateSkillRequest;
    expect(createSkill.required).toEqual(expect.arrayContaining(['name', 'description', 'category', 'systemPrompt']));
    expect(createSkill.required).not.toContain('visibility');
    expect(createSkill.properties.visibility.enum).toEqual(['private', 'team', 'public']);
    expect(createSkill.additionalProperties).toBe(false);
    const chat = document.components.schemas.ChatCompletionRequest;
    expect(chat.required).toEqual(['model', 'messages']);
    expect(chat.properties.temperature).toMatchObject({ minimum: 0, maximum: 2 });
    const runs = document.paths['/v1/automations/{id}/runs'].get.parameters.map((p: Json) => p.name);
    expect(runs).toEqual(['id', 'limit', 'offset', 'status']);
    expect(Object.keys(document.paths['/v1/chat/completions'].post.responses['200'].content)).toEqual(['application/json', 'text/event-stream']);
    for (const path of ['/v1/responses', '/v1/messages']) expect(Object.keys(document.paths[path].post.responses['200'].content)).toEqual(['application/json', 'text/event-stream']);
    expect(document.paths['/v1/messages'].post.responses['529'].content['application/json'].schema.allOf[1].properties.error.properties.type.enum).toEqual(['overloaded_error']);
    expect(document.paths['/v1/messages'].post.security).toContainEqual({ anthropicApiKey: [] });
  });

  it('gives every request body an example that its route would accept', () => {
    for (const operation of apiOperations.filter((op) => op.body)) {
      const parsed = operation.body!.schema.safeParse(operation.body!.example);
      expect(parsed.success, `${operation.operationId}: ${parsed.error?.message}`).toBe(true);
      expect(document.paths[operation.path][operation.method].requestBody.content['application/json'].example).toEqual(operation.body!.example);
    }
  });

  it('resolves every $ref inside the document', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of new Set(refs)) {
      expect(ref.startsWith('#/'), ref).toBe(true);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<Json | undefined>((node, segment) => node?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], document);
      expect(target, `unresolved ${ref}`).toBeDefined();
    }
  });
});

describe('GET /docs', () => {
  it('serves the reference page and its assets from this server, with a strict CSP', async () => {
    const page = await call(stack.api.url, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/assets/init.js']));
    for (const asset of assets) {
      expect(asset.startsWith('/docs/assets/'), `${asset} is local`).toBe(true);
      const response = await fetch(stack.api.url + asset);
      expect(response.status, asset).toBe(200);
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
    }
  });

  it('serves no other file of the package', async () => {
    for (const path of ['/docs/assets/package.json', '/docs/assets/index.html', '/docs/assets/..%2Fpackage.json', '/docs/assets/../../package.json']) {
      const response = await call<Json>(stack.api.url, 'GET', path);
      expect(response.status, path).toBe(404);
      expect(response.body.error.code, path).toBe('not_found');
    }
  });
});
