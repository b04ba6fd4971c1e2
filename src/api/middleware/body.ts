// Request bodies: JSON only, bounded in size. A body with another media type is 415; an empty
// body is allowed (POST /automations/{id}/activate carries none).
import express, { type RequestHandler } from 'express';
import { AppError, badRequest } from '../../errors.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.get('content-length');
  if (length !== undefined) return Number(length) > 0;
  return req.get('transfer-encoding') !== undefined;
}

export function requireJsonMediaType(): RequestHandler {
  return (req, _res, next) => {
    if (METHODS_WITH_BODY.has(req.method) && hasBody(req) && !req.is(['application/json', 'application/*+json'])) {
      next(new AppError('unsupported_media_type', 'Request body must be JSON (Content-Type: application/json)'));
      return;
    }
    next();
  };
}

export function jsonBody(limitBytes: number): RequestHandler {
  return express.json({ limit: limitBytes, strict: false, type: ['application/json', 'application/*+json'] });
}

/**
 * PostgreSQL's text and jsonb cannot hold U+0000, so a NUL anywhere in the request would fail in
 * the database as a 500. Refused at the edge instead, as 400 naming where it is
 * (`messages[0].content`, a query parameter, or the path).
 */
export function rejectNulCharacters(pathParamAt?: (method: string, path: string) => string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (/%00/.test(req.path)) {
      // Inside a path parameter (`/v1/skills/%00`) the parameter is named, like any malformed id.
      const param = pathParamAt?.(req.method, req.path);
      next(badRequest(param ? `${param} must not contain NUL characters (%00)` : 'The URL path must not contain NUL characters (%00)', param ?? 'path'));
      return;
    }
    const inQuery = findNul(req.query, '');
    const inBody = inQuery === undefined ? findNul(req.body, '') : undefined;
    const where = inQuery ?? inBody;
    if (where !== undefined) {
      next(nulError(where || (inQuery !== undefined ? 'query' : 'body')));
      return;
    }
    next();
  };
}

/** 400 naming where a U+0000 was found (a field path, `query` or `body`). */
export function nulError(param: string): AppError {
  return badRequest(`${param} must not contain NUL characters (\\u0000)`, param);
}

/** The path of the first string or key holding U+0000 (`''` for the value itself), else undefined. */
export function findNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findNul(value[index], `${path}[${index}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, inner] of Object.entries(value)) {
    const keyPath = path ? `${path}.${key.replace(/\0/g, '\\u0000')}` : key.replace(/\0/g, '\\u0000');
    if (key.includes('\0')) return keyPath;
    const found = findNul(inner, keyPath, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
