// Response shapes of the API as zod schemas, for the OpenAPI document only: the services build
// their responses from typed views (automations.views.ts, skills/views.ts, *.service.ts), and
// these schemas describe those views. The fuzz test validates real 2xx bodies against them, so
// a view that drifts from its schema fails a test.
import { z } from 'zod';
import { APPROVAL_STATUSES, DECISION_VIAS } from '../../approval-policy/entities.js';
import { APPROVAL_MODES } from '../../approval-policy/policy.js';
import { AUTOMATION_STATUSES, RUN_STATUSES, RUN_TRIGGERS } from '../../automations/entities.js';
import { CONNECTION_STATUSES } from '../../connectors/entities.js';
import { DETECTOR_TYPES } from '../../gateway/dlp/detectors.js';
import { DLP_ACTIONS } from '../../gateway/dlp/policy.js';
import { ROLES, USER_STATUSES } from '../../identity/entities.js';
import { MODEL_TIERS, SKILL_STATUSES, SKILL_VISIBILITIES } from '../../skills/entities.js';
import { EXECUTION_STATUSES } from '../../webhooks/entities.js';
import { apiSchemas } from './registry.js';

const timestamp = z.string().describe('ISO 8601 date-time in UTC');
const nullableTimestamp = timestamp.nullable();
const toolApprovals = z
  .record(z.string(), z.enum(APPROVAL_MODES))
  .describe('Which tool calls wait for a person: `<connectorId>__<toolName>` or `<connectorId>__*` -> `always` | `never` (docs/approvals.md)');
const list = <T extends z.ZodType>(key: string, item: T) => z.object({ [key]: z.array(item), total: z.number().int() });

export const healthResponse = z.object({ status: z.literal('ok') }).register(apiSchemas, { id: 'Health' });
export const readinessResponse = z
  .object({ status: z.literal('ok'), checks: z.record(z.string(), z.string()) })
  .register(apiSchemas, { id: 'Readiness' });

export const userView = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    status: z.enum(USER_STATUSES),
    lastLoginAt: nullableTimestamp,
    createdAt: timestamp,
  })
  .register(apiSchemas, { id: 'User' });
export const signedInResponse = z.object({ user: userView }).register(apiSchemas, { id: 'SignedIn' });
export const userList = list('users', userView).register(apiSchemas, { id: 'UserList' });

const apiKeyLimits = {
  models: z.array(z.string()).nullable().describe('Model and tier ids the key may use; null = every one'),
  monthlyBudget: z.number().nullable().describe("USD per month for this key alone; null = only the organization's cap"),
  rateLimitPerMinute: z.number().int().nullable().describe('Requests per minute; null = the service default'),
  mcpTools: z.array(z.string()).nullable().describe('Tools the key reaches through /v1/mcp (`<toolId>__<toolName>` or `<toolId>__*`); null = every tool of its user'),
};

export const apiKeyView = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    userId: z.string(),
    createdAt: timestamp,
    lastUsedAt: nullableTimestamp,
    revokedAt: nullableTimestamp,
    ...apiKeyLimits,
    spentThisMonth: z.number().describe('USD recorded for this key in the current calendar month (UTC)'),
  })
  .register(apiSchemas, { id: 'ApiKey' });
export const createdApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z.string().describe('The raw key (svc_live_...): shown in this response only'),
    prefix: z.string(),
    createdAt: timestamp,
    ...apiKeyLimits,
  })
  .register(apiSchemas, { id: 'CreatedApiKey' });
export const apiKeyList = list('apiKeys', apiKeyView).register(apiSchemas, { id: 'ApiKeyList' });

export const auditLogList = list(
  'auditLogs',
  z
    .object({
      id: z.string(),
      action: z.string(),
      actorUserId: z.string().nullable(),
      actorApiKeyId: z.string().nullable(),
      targetType: z.string().nullable(),
      targetId: z.string().nullable(),
      metadata: z.record(z.string(), z.unknown()),
      requestId: z.string().nullable(),
      createdAt: timestamp,
    })
    .register(apiSchemas, { id: 'AuditEvent' }),
).register(apiSchemas, { id: 'AuditLogList' });

export const diagnosticsResponse = z
  .object({ status: z.literal('ok'), workflowId: z.string(), runId: z.string(), databaseTime: z.string(), workerTaskQueue: z.string() })
  .register(apiSchemas, { id: 'Diagnostics' });

const toolCall = z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) });
export const chatCompletion = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number().int().describe('Unix seconds'),
    model: z.string().describe('The model that answered'),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(toolCall).optional() }),
        finish_reason: z.string().nullable(),
        logprobs: z.null(),
      }),
    ),
    usage: z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() }),
  })
  .register(apiSchemas, { id: 'ChatCompletion' });
export const chatCompletionStream = z
  .string()
  .describe('Server-sent events: `data: {chat.completion.chunk}` lines, ending with `data: [DONE]`; a failure after the first chunk is a `data: {"error": ...}` event before [DONE]');

export const dlpPolicy = z
  .object({
    detectors: z.record(z.enum(DETECTOR_TYPES), z.enum(DLP_ACTIONS)),
    updatedAt: nullableTimestamp,
  })
  .register(apiSchemas, { id: 'DlpPolicy' });

const channelView = z.object({
  type: z.enum(['slack', 'email', 'webhook']),
  target: z.string(),
  secret: z.string().optional().describe('Webhook signing secret: only in the response that generated it'),
});

export const automationListItem = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    status: z.enum(AUTOMATION_STATUSES),
    schedule: z.string(),
    timezone: z.string(),
    model: z.string(),
    lastRunAt: nullableTimestamp,
    nextRunAt: nullableTimestamp,
    createdAt: timestamp,
  })
  .register(apiSchemas, { id: 'AutomationListItem' });
export const automationList = list('automations', automationListItem).register(apiSchemas, { id: 'AutomationList' });
export const automationView = automationListItem
  .extend({
    ownerId: z.string().describe('The user its runs act as (role, connections, skills, usage)'),
    systemPrompt: z.string(),
    skillId: z.string().nullable(),
    skillVersion: z.number().int().nullable().describe('The pinned skill version; changes only when the owner re-pins'),
    tools: z.array(z.string()),
    toolApprovals,
    channels: z.array(channelView),
    skippedFires: z.number().int().describe('Scheduled fires skipped because a run of the automation was still running (overlap)'),
    missedFires: z.number().int().describe('Fires missed while workers or the Temporal server were down and not caught up (one catch-up run per outage, within AUTOMATION_CATCHUP_WINDOW_SECONDS)'),
    updatedAt: timestamp,
  })
  .register(apiSchemas, { id: 'Automation' });
export const pendingApproval = z
  .object({ id: z.string(), tool: z.string(), arguments: z.string().describe('JSON text, after DLP masking'), expiresAt: timestamp })
  .register(apiSchemas, { id: 'PendingApproval' });
export const approvalView = z
  .object({
    id: z.string(),
    status: z.enum(APPROVAL_STATUSES),
    tool: z.string().describe('`<connectorId>__<toolName>`'),
    arguments: z.string().describe('The call\'s arguments (JSON text) after DLP masking'),
    runId: z.string().nullable(),
    automationId: z.string().nullable(),
    executionId: z.string().nullable(),
    assistantId: z.string().nullable(),
    apiKeyId: z.string().nullable().describe('A /v1/mcp call: the API key that made it'),
    requestedAt: timestamp,
    expiresAt: timestamp,
    decidedAt: nullableTimestamp,
    decidedBy: z.string().nullable().describe('The user who decided through the API'),
    decidedVia: z.enum(DECISION_VIAS).nullable().describe('api (a user), link (a signed link), signal (an operator), timer (expired), cancel (the run was cancelled)'),
    decidedChannel: z.string().nullable().describe('For a link: the channel it was sent to'),
    reason: z.string().nullable(),
  })
  .register(apiSchemas, { id: 'Approval' });
export const approvalList = list('approvals', approvalView).register(apiSchemas, { id: 'ApprovalList' });
export const runView = z
  .object({
    id: z.string(),
    automationId: z.string(),
    trigger: z.enum(RUN_TRIGGERS),
    status: z.enum(RUN_STATUSES),
    startedAt: timestamp,
    completedAt: nullableTimestamp,
    duration: z.number().int().nullable().describe('Milliseconds'),
    tokensInput: z.number().int().nullable(),
    tokensOutput: z.number().int().nullable(),
    estimatedCost: z.number().nullable(),
    output: z.string().nullable(),
    error: z
      .string()
      .nullable()
      .describe('Why a failed run failed: `<code>: <message>` when the failure has a code (e.g. `budget_exceeded: …`), else the message; `cancelled` for a cancelled run'),
    retryOf: z.string().nullable().describe('The run this one retries (POST .../runs/{runId}/retry); null otherwise'),
    scheduledFor: nullableTimestamp.describe('When the fire of a `schedule` or `catch-up` run was due (a catch-up run starts after it); null for other runs'),
    pendingApprovals: z.array(pendingApproval).describe('The tool calls the run waits on (a running run only; docs/approvals.md)'),
  })
  .register(apiSchemas, { id: 'Run' });
export const automationDetail = automationView
  .extend({
    runSummary: z.object({ counts: z.record(z.enum(RUN_STATUSES), z.number().int()), total: z.number().int(), recentRuns: z.array(runView) }),
  })
  .register(apiSchemas, { id: 'AutomationDetail' });
export const activatedAutomation = z
  .object({ id: z.string(), status: z.enum(AUTOMATION_STATUSES), nextRunAt: nullableTimestamp })
  .register(apiSchemas, { id: 'AutomationActivated' });
export const pausedAutomation = z.object({ id: z.string(), status: z.enum(AUTOMATION_STATUSES) }).register(apiSchemas, { id: 'AutomationPaused' });
export const startedRun = z
  .object({ runId: z.string(), automationId: z.string(), status: z.literal('running'), startedAt: timestamp })
  .register(apiSchemas, { id: 'RunStarted' });
export const retriedRun = startedRun
  .extend({ retryOf: z.string().describe('The run this one retries') })
  .register(apiSchemas, { id: 'RunRetried' });
export const runList = list('runs', runView).register(apiSchemas, { id: 'RunList' });

export const automationWebhook = z
  .object({ id: z.string(), automationId: z.string(), url: z.string(), createdAt: timestamp })
  .register(apiSchemas, { id: 'AutomationWebhook' });
export const automationWebhookList = list('webhooks', automationWebhook).register(apiSchemas, { id: 'AutomationWebhookList' });

export const skillVersion = z
  .object({
    version: z.number().int(),
    skillId: z.string(),
    systemPrompt: z.string(),
    tools: z.array(z.string()),
    approvalRequired: z.array(z.string()).describe('Tools (`<connectorId>__<toolName>` or `<connectorId>__*`) whose calls always wait for approval'),
    modelTier: z.enum(MODEL_TIERS),
    notes: z.string().nullable(),
    createdAt: timestamp,
  })
  .register(apiSchemas, { id: 'SkillVersion' });
export const skillView = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    category: z.string(),
    systemPrompt: z.string().nullable(),
    modelTier: z.enum(MODEL_TIERS),
    tools: z.array(z.string()),
    visibility: z.enum(SKILL_VISIBILITIES),
    status: z.enum(SKILL_STATUSES),
    currentVersion: z.number().int(),
    publishedAt: nullableTimestamp,
    marketplaceUrl: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .register(apiSchemas, { id: 'Skill' });
export const marketplaceSkill = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    category: z.string(),
    publishedAt: timestamp,
    currentVersion: z.object({ version: z.number().int(), modelTier: z.enum(MODEL_TIERS), tools: z.array(z.string()), createdAt: timestamp }),
  })
  .register(apiSchemas, { id: 'MarketplaceSkill' });
export const skillDetail = skillView.extend({ versions: z.array(skillVersion) }).register(apiSchemas, { id: 'SkillDetail' });
export const skillList = list('skills', skillView).register(apiSchemas, { id: 'SkillList' });
export const publishResult = z
  .object({ id: z.string(), status: z.enum(SKILL_STATUSES), publishedAt: timestamp, marketplaceUrl: z.string() })
  .register(apiSchemas, { id: 'PublishResult' });

export const connectorList = list(
  'tools',
  z
    .object({
      id: z.string(),
      name: z.string(),
      category: z.string(),
      transport: z.enum(['stdio', 'streamable-http']),
      command: z.string(),
      args: z.array(z.string()).optional(),
      url: z.string().optional(),
      requiredEnvVars: z.array(z.string()),
      optionalEnvVars: z.array(z.string()),
      description: z.string(),
    })
    .register(apiSchemas, { id: 'Connector' }),
).register(apiSchemas, { id: 'ConnectorList' });
const connectionSummary = z
  .object({
    id: z.string(),
    toolId: z.string(),
    name: z.string(),
    status: z.enum(CONNECTION_STATUSES),
    connectedAt: nullableTimestamp,
    lastTestedAt: nullableTimestamp,
  })
  .register(apiSchemas, { id: 'ConnectionSummary' });
export const connectionList = z.object({ connections: z.array(connectionSummary) }).register(apiSchemas, { id: 'ConnectionList' });
export const connectionDetail = connectionSummary
  .extend({
    testResult: z.string().nullable(),
    tools: z.array(z.string()),
    envVars: z.array(z.string()).describe('Names of the variables set; values are never returned'),
    toolApprovals,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .register(apiSchemas, { id: 'Connection' });
export const connectionTestResult = z
  .object({
    id: z.string(),
    toolId: z.string(),
    status: z.enum(CONNECTION_STATUSES),
    lastTestedAt: timestamp,
    testResult: z.string(),
    tools: z.array(z.string()),
  })
  .register(apiSchemas, { id: 'ConnectionTestResult' });

const usageTotals = {
  requests: z.number().int(),
  inputTokens: z.number().int().describe('Every prompt token, the cached ones included'),
  outputTokens: z.number().int(),
  estimatedCost: z.number().describe('USD, cache reads and writes at their own prices'),
  cacheReadTokens: z.number().int().describe("Of inputTokens, read from the upstreams' prompt caches"),
  cacheWriteTokens: z.number().int().describe("Of inputTokens, written to the upstreams' prompt caches"),
  cacheSaving: z.number().describe('USD the cache reads saved: what they would have cost at the input price less what they cost'),
};
export const usageReport = z
  .union([
    z
      .object({
        period: z.object({ from: timestamp, to: timestamp }),
        totals: z.object(usageTotals),
        budgetCap: z.number().nullable(),
        budgetRemaining: z.number().nullable(),
      })
      .register(apiSchemas, { id: 'UsageSummary' }),
    z
      .object({
        groups: z.array(
          z.union([
            z.object({ model: z.string(), ...usageTotals }),
            z.object({ userId: z.string(), email: z.string().nullable(), ...usageTotals }),
            z.object({ day: z.string().describe('YYYY-MM-DD (UTC)'), ...usageTotals }),
            z.object({
              apiKeyId: z.string().nullable().describe('null: calls made without an API key (a browser session, an automation run)'),
              name: z.string().nullable(),
              prefix: z.string().nullable(),
              ...usageTotals,
            }),
          ]),
        ),
      })
      .register(apiSchemas, { id: 'UsageGroups' }),
  ])
  .register(apiSchemas, { id: 'UsageReport' });
export const budgetView = z
  .object({ monthlyCap: z.number().nullable(), periodStart: timestamp, spent: z.number(), remaining: z.number().nullable() })
  .register(apiSchemas, { id: 'Budget' });

export const assistantView = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    systemPrompt: z.string(),
    model: z.string(),
    skillId: z.string().nullable(),
    skillVersion: z.number().int().nullable().describe('The pinned skill version; changes only when the owner re-pins'),
    tools: z.array(z.string()),
    toolApprovals,
    channels: z.array(channelView),
    trigger: z.object({ type: z.literal('webhook') }).nullable(),
    webhookUrl: z.string().optional().describe("Only for the creator, admins and the owner, and only with a webhook trigger"),
    createdBy: z.string(),
    ownerId: z.string().describe('The user its executions act as; only they change what it runs'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .register(apiSchemas, { id: 'Assistant' });
export const assistantList = list('assistants', assistantView).register(apiSchemas, { id: 'AssistantList' });

export const webhookAcknowledgment = z
  .object({ received: z.literal(true), webhookId: z.string(), executionId: z.string(), status: z.literal('queued') })
  .register(apiSchemas, { id: 'WebhookAcknowledgment' });
export const webhookExecution = z
  .object({
    executionId: z.string(),
    status: z.enum(EXECUTION_STATUSES),
    target: z.union([
      z.object({ type: z.literal('assistant'), assistantId: z.string() }),
      z.object({ type: z.literal('automation'), automationId: z.string() }),
    ]),
    receivedAt: timestamp,
    startedAt: nullableTimestamp,
    completedAt: nullableTimestamp,
    output: z.string().nullable().optional(),
    usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int(), estimatedCost: z.number() }).nullable().optional(),
    model: z.string().nullable().optional(),
    runId: z.string().nullable().optional(),
    error: z.string().optional(),
    pendingApprovals: z.array(pendingApproval).optional().describe('A running assistant execution: the tool calls it waits on (docs/approvals.md)'),
  })
  .register(apiSchemas, { id: 'WebhookExecution' });
