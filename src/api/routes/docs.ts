// The API's own description, public: GET /v1/openapi.json (the OpenAPI 3.1 document built from
// the route registry) and GET /docs, an API reference page rendered by Swagger UI, whose assets
// are served from the installed swagger-ui-dist package (no CDN; the page works offline).
import { createRequire } from 'node:module';
import path from 'node:path';
import { Router, type RequestHandler } from 'express';
import { openApiDocument } from '../openapi/document.js';
import type { AppDeps } from '../../runtime-deps.js';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Only these files of the package are served; nothing else under its directory is reachable. */
const SWAGGER_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);

// Kept out of the HTML so the page needs no inline script (see the CSP below).
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    persistAuthorization: false,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>AI Workspace and Gateway API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
`;

// Swagger UI sets inline styles and shows data: images; scripts come from this origin only.
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const serveAsset: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  const name = req.path.replace(/^\//, '');
  if (name === 'init.js') {
    res.type('application/javascript').setHeader('Cache-Control', 'no-cache');
    res.send(INITIALIZER);
    return;
  }
  if (!SWAGGER_ASSETS.has(name)) return next();
  res.sendFile(path.join(swaggerUiDir, name), { maxAge: '1h' });
};

export function docsRoutes(_deps: AppDeps): Router {
  const router = Router();
  router.get('/v1/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.type('html').send(PAGE);
  });
  // Middleware rather than a route: static files are not endpoints of the document.
  router.use('/docs/assets', serveAsset);
  return router;
}
