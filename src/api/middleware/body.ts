// Request bodies: JSON only, bounded in size. A body with another media type is 415; an empty
// body is allowed (POST /automations/{id}/activate carries none).
import express, { type RequestHandler } from 'express';
import { AppError } from '../../errors.js';

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
