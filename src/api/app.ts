// Builds the Express app from its dependencies. Routes are thin: parse, call one service, shape
// the response. Every error leaves through the one error middleware.
import express, { type Express, type Router } from 'express';
import './types.js';
import type { AppDeps } from '../runtime-deps.js';
import { authenticate } from './middleware/auth.js';
import { rateLimit } from './middleware/rate-limit.js';
import { jsonBody, rejectNulCharacters, requireJsonMediaType } from './middleware/body.js';
import { errorHandler, notFoundHandler } from './middleware/errors.js';
import { requestContext } from './middleware/request-context.js';
import { pathParamContaining, validatePathParams } from './middleware/path-params.js';
import { apiOperations } from './openapi/document.js';
import { traceRequests } from './middleware/tracing.js';
import { tracing } from '../telemetry/tracing.js';
import { billingRoutes } from './routes/billing.js';
import { apiKeysRoutes } from './routes/api-keys.js';
import { approvalLinkRoutes } from './routes/approval-links.js';
import { approvalsRoutes } from './routes/approvals.js';
import { auditLogsRoutes } from './routes/audit-logs.js';
import { gatewayRequestsRoutes } from './routes/gateway-requests.js';
import { authRoutes } from './routes/auth.js';
import { automationsRoutes } from './routes/automations.js';
import { gatewayRoutes } from './routes/chat-completions.js';
import { modelsRoutes } from './routes/models.js';
import { responsesRoutes } from './routes/responses.js';
import { diagnosticsRoutes } from './routes/diagnostics.js';
import { dlpRoutes } from './routes/dlp.js';
import { usersRoutes } from './routes/users.js';
import { healthRoutes } from './routes/health.js';
import { docsRoutes } from './routes/docs.js';
import { consoleRoutes } from './console.js';
import { consoleSettingsRoutes } from './routes/console-settings.js';
import { marketplaceRoutes } from './routes/marketplace.js';
import { metricsRoutes } from './routes/metrics.js';
import { assistantRoutes } from './routes/assistants.js';
import { webhookIngressRoutes, webhookRoutes } from './routes/webhooks.js';
import { toolsRoutes } from './routes/tools.js';
import { skillsRoutes } from './routes/skills.js';
import { CODEC_PATH, codecCors, codecRoutes } from './routes/codec.js';
import { mcpRoutes } from './routes/mcp.js';

type RouteFactory = (deps: AppDeps) => Router;

/**
 * Routes under /v1 that carry their own credential (the webhook URL), none yet (sign-in), or
 * authenticate on their own terms (the codec server, which also takes the Web UI's origin).
 */
const publicV1Routes: RouteFactory[] = [authRoutes, webhookIngressRoutes, codecRoutes];

/** Routes under /v1 behind authentication (API key or session). */
const authenticatedV1Routes: RouteFactory[] = [diagnosticsRoutes, modelsRoutes, responsesRoutes, dlpRoutes, automationsRoutes, usersRoutes, apiKeysRoutes, auditLogsRoutes, gatewayRequestsRoutes, billingRoutes, toolsRoutes, assistantRoutes, webhookRoutes, skillsRoutes, approvalsRoutes, consoleSettingsRoutes];

export function buildApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // API answers are not revalidated; hashing every body costs CPU per request
  // Only the listed proxies' X-Forwarded-For is believed (a list, never `true`): req.ip is the client.
  app.set('trust proxy', deps.config.TRUST_PROXY?.length ? deps.config.TRUST_PROXY : false);
  app.set('query parser', 'simple');

  // A NUL inside a path parameter is named like any malformed id (docs/DESIGN-NOTES.md).
  const nulInPathParam = (method: string, path: string) => pathParamContaining(apiOperations, method, path, '%00');
  const body = [requireJsonMediaType(), jsonBody(deps.config.BODY_LIMIT_BYTES), rejectNulCharacters(nulInPathParam)];
  // After body parsing: the span's context must be current when the routes run, and a body
  // stream's callbacks would not carry it. Mounted only when traces are on.
  const traced = tracing() ? [traceRequests()] : [];
  const authenticated = [authenticate(deps), rateLimit(deps)];
  // Anthropic's clients send the API key in x-api-key (on their routes only).
  const authenticatedByApiKeyHeader = [authenticate(deps, { apiKeyHeader: true }), authenticated[1]!];

  app.use(requestContext(deps.logger));
  // The gateway's hot path first, with the same checks and nothing else (see gatewayRoutes).
  app.use(gatewayRoutes(deps, (endpoint) => [...body, ...traced, ...(endpoint.credential === 'x-api-key' ? authenticatedByApiKeyHeader : authenticated)]));
  // The MCP gateway likewise (/v1/mcp has no path parameters to check).
  app.use(mcpRoutes(deps, [...body, ...traced, ...authenticated]));
  app.use(healthRoutes(deps));
  app.use(metricsRoutes(deps));
  app.use(docsRoutes(deps));
  app.use(consoleRoutes(deps));
  app.use(`/v1${CODEC_PATH}`, codecCors(deps.config.temporalUiOrigin));
  app.use(validatePathParams(apiOperations.filter((o) => !o.path.startsWith('/v1/')), '', ['none']));
  app.use(marketplaceRoutes(deps));
  // Signed approval links: public, and a browser form's POST carries no JSON body.
  app.use(validatePathParams(apiOperations.filter((o) => o.path.startsWith('/v1/approval-links/')), '', ['none']));
  app.use(approvalLinkRoutes(deps));
  for (const handler of [...body, ...traced]) app.use(handler);

  const v1 = express.Router();
  // Malformed path ids are 400 naming the parameter on every route (docs/DESIGN-NOTES.md);
  // for authenticated routes only once the caller is known, so 401 comes first.
  v1.use(validatePathParams(apiOperations, '/v1', ['none', 'webhookUrl']));
  for (const routes of publicV1Routes) v1.use(routes(deps));
  for (const handler of authenticated) v1.use(handler);
  v1.use(validatePathParams(apiOperations, '/v1', ['caller']));
  for (const routes of authenticatedV1Routes) v1.use(routes(deps));
  app.use('/v1', v1);

  app.use(notFoundHandler);
  app.use(errorHandler(deps.config.BODY_LIMIT_BYTES));
  return app;
}
