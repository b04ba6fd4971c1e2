// Path parameters are checked once, from the route registry, before any route runs: a value not
// of the parameter's format (a non-UUID `{id}`, a 1,000-character id, a malformed `wh_` URL id)
// is 400 `bad_request` naming the parameter, on every route; a well-formed id that names nothing
// the caller may see stays 404 in the service. One rule instead of each service's own (some
// answered 404, some 400). See docs/DESIGN-NOTES.md.
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { badRequest } from '../../errors.js';
import type { Authentication, Operation } from '../openapi/registry.js';

interface CompiledOperation {
  method: string;
  pattern: RegExp;
  names: string[];
  schemas: Record<string, z.ZodType>;
  literal: boolean;
}

function compile(operation: Operation, mount: string): CompiledOperation {
  const names: string[] = [];
  const relative = operation.path.startsWith(mount) ? operation.path.slice(mount.length) : operation.path;
  const source = relative
    .split('/')
    .map((segment) => {
      const param = /^\{([^}]+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { method: operation.method.toUpperCase(), pattern: new RegExp(`^${source}/?$`), names, schemas: operation.pathParams ?? {}, literal: names.length === 0 };
}

/** The operations of `auth` kinds whose path lies under `mount`, compiled for matching. */
function compileAll(operations: Operation[], mount: string, auth: Authentication[]): CompiledOperation[] {
  return operations.filter((o) => o.path.startsWith(`${mount}/`) && auth.includes(o.auth)).map((o) => compile(o, mount));
}

/** The operation a request reaches: a literal path (`/users/me`) wins over a templated one. */
function matchOperation(compiled: CompiledOperation[], method: string, path: string): { operation: CompiledOperation; raw: string[] } | undefined {
  const candidates = compiled.filter((c) => c.method === method || (method === 'HEAD' && c.method === 'GET'));
  const literal = candidates.find((c) => c.literal && c.pattern.test(path));
  if (literal) return undefined;
  for (const operation of candidates) {
    const found = operation.pattern.exec(path);
    if (found) return { operation, raw: found.slice(1) };
  }
  return undefined;
}

/**
 * Validates the path parameters of the registry's operations of the given authentication kinds
 * (mounted where those routes are, after authentication for `caller` routes so 401 comes first).
 */
export function validatePathParams(operations: Operation[], mount: string, auth: Authentication[]): RequestHandler {
  const compiled = compileAll(operations, mount, auth);
  return (req, _res, next) => {
    const match = matchOperation(compiled, req.method, req.path);
    if (!match) {
      next();
      return;
    }
    for (const [index, name] of match.operation.names.entries()) {
      const schema = match.operation.schemas[name];
      let value: string;
      try {
        value = decodeURIComponent(match.raw[index]!);
      } catch {
        next(badRequest(`${name} is not a valid path value (bad percent-encoding)`, name));
        return;
      }
      if (schema && !schema.safeParse(value).success) {
        next(badRequest(`${name} is malformed: ${describe(schema)}`, name));
        return;
      }
    }
    next();
  };
}

function describe(schema: z.ZodType): string {
  return schema.description ? `expected ${schema.description.replace(/[.;].*$/, '')}` : 'not of the expected format';
}

/** The name of the path parameter whose raw segment contains `needle` (for the NUL check), if any. */
export function pathParamContaining(operations: Operation[], method: string, path: string, needle: string): string | undefined {
  const compiled = operations.map((o) => compile(o, ''));
  const match = matchOperation(compiled, method, path);
  if (!match) return undefined;
  const index = match.raw.findIndex((segment) => segment.includes(needle));
  return index >= 0 ? match.operation.names[index] : undefined;
}
