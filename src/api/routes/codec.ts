// POST /v1/codec/encode and /v1/codec/decode: the codec server the Temporal Web UI calls to show
// encrypted payloads (docs/operations.md, "Reading runs in the Web UI through the codec server"). Admins and
// the owner, by API key or session; the session cookie is also accepted from the Web UI's
// origin, which CORS lets call these two routes with credentials (codecCors).
import { Router, type RequestHandler } from 'express';
import { runCodec } from '../../payloads/codec-server.js';
import type { AppDeps } from '../../runtime-deps.js';
import { authenticate, callerOf, requireRole } from '../middleware/auth.js';
import { rateLimit } from '../middleware/rate-limit.js';

export const CODEC_PATH = '/codec';

export function codecRoutes(deps: AppDeps): Router {
  const router = Router();
  const guard = [authenticate(deps, { extraAllowedOrigins: [deps.config.temporalUiOrigin] }), rateLimit(deps), requireRole('admin')];
  for (const direction of ['encode', 'decode'] as const) {
    router.post(`${CODEC_PATH}/${direction}`, ...guard, (req, res) => {
      const request = { direction, organizationId: callerOf(req).organizationId, namespace: req.get('x-namespace') || undefined };
      res.json(runCodec(deps.temporal.codec, deps.config.TEMPORAL_NAMESPACE, request, req.body));
    });
  }
  return router;
}

/** Headers the Web UI sends to a codec server (Authorization when it passes its own token). */
const ALLOWED_HEADERS = 'Content-Type, X-Namespace, Authorization';

/**
 * CORS for the codec routes: the Web UI's origin only, with credentials (the session cookie),
 * preflight included. Other origins get no CORS headers, so browsers keep their pages out.
 */
export function codecCors(uiOrigin: string): RequestHandler {
  return (req, res, next) => {
    res.vary('Origin');
    const allowed = req.get('origin') === uiOrigin;
    if (allowed) {
      res.set('Access-Control-Allow-Origin', uiOrigin);
      res.set('Access-Control-Allow-Credentials', 'true');
    }
    if (req.method !== 'OPTIONS') {
      next();
      return;
    }
    if (allowed) {
      res.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
      res.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.set('Access-Control-Max-Age', '600');
    }
    res.status(204).end();
  };
}
