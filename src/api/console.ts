// The web console at /console/: the built single-page app (console/, built by
// scripts/ensure-console.sh into console/dist) served from disk, no second server. Assets under
// /console/assets/ are content-hashed and cached; every other path under /console/ is a
// client-side route and answers index.html. The console is a client of the public API: it is
// served with a content security policy that allows scripts, styles and fetches from this origin
// only (no inline script). Without a build the console answers 503 saying how to build it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../runtime-deps.js';

export const CONSOLE_PATH = '/console';

/** console/dist from src/api (tsx) and from dist/api (the build) alike. */
const DEFAULT_CONSOLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'console', 'dist');

export const CONSOLE_CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export function consoleRoutes(_deps: AppDeps, dir: string = DEFAULT_CONSOLE_DIR): Router {
  const router = Router();
  const assets = path.join(dir, 'assets');
  router.use(`${CONSOLE_PATH}/assets`, (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // Only plain file names under assets/: no traversal, no dot files; a missing asset is 404, not the page.
    const name = req.path.replace(/^\//, '');
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.')) return assetNotFound(res);
    res.sendFile(path.join(assets, name), { maxAge: '365d', immutable: true }, (error) => {
      if (error && !res.headersSent) assetNotFound(res);
    });
  });
  // Middleware rather than routes: the console's pages are not endpoints of the API document.
  router.use(CONSOLE_PATH, (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.originalUrl === CONSOLE_PATH || req.originalUrl.startsWith(`${CONSOLE_PATH}?`)) return res.redirect(301, `${CONSOLE_PATH}/`);
    sendIndex(req, res, dir);
  });
  return router;
}

function assetNotFound(res: Response): void {
  res.status(404).type('text/plain').send('Not found\n');
}

function sendIndex(_req: Request, res: Response, dir: string): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-cache');
  let html: string;
  try {
    // Read on each request: a rebuild (npm run dev watches the sources) shows on reload.
    html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  } catch {
    res.status(503).type('text/plain').send('The console is not built: run `bash scripts/ensure-console.sh` (npm run dev and npm test do it).\n');
    return;
  }
  res.type('html').send(html);
}
