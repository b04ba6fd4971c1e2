// Registry entries of the workspace endpoints: skills, tools, assistants, the webhook ingress and
// the execution status.
import { z } from 'zod';
import { createAssistantSchema, updateAssistantSchema } from '../../assistants/assistants.schemas.js';
import { createConnectionBody, listConnectionsQuery } from '../../connectors/connections.schemas.js';
import { createSkillBody, createVersionBody, listSkillsQuery, skillIdParam, updateSkillBody, versionParam } from '../../skills/skills.schemas.js';
import { EXECUTION_ID_PATTERN, WEBHOOK_ID_PATTERN } from '../../webhooks/webhook-ids.js';
import type { Operation } from './registry.js';
import * as r from './responses.js';

const skillId = { id: skillIdParam.describe('Skill id (UUID)') };
const connectionId = { id: z.uuid().describe('Connection id (UUID)') };
const assistantId = { id: z.uuid().describe('Assistant id (UUID)') };

const skills: Operation[] = [
  {
    method: 'get',
    path: '/marketplace/skills/{id}',
    operationId: 'getMarketplaceSkill',
    tag: 'Skills',
    summary: 'Public marketplace listing of a published skill (no authentication)',
    description:
      "Where the default `MARKETPLACE_URL` (`http://localhost:$PORT/marketplace`) makes a skill's `marketplaceUrl` point. Only published, public skills; anything else is 404 like an unknown id. Public fields only: name, description, category, publication time and the current version's number, model tier and tool ids; never the organization, author, system prompt or version notes.",
    auth: 'none',
    pathParams: skillId,
    responses: { 200: { description: 'The published skill', schema: r.marketplaceSkill } },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/skills',
    operationId: 'listSkills',
    tag: 'Skills',
    summary: 'Skills the caller can see, newest first',
    auth: 'caller',
    query: listSkillsQuery,
    responses: { 200: { description: 'One page of skills', schema: r.skillList } },
    errors: [],
  },
  {
    method: 'post',
    path: '/v1/skills',
    operationId: 'createSkill',
    tag: 'Skills',
    summary: 'Create a skill and its version 1',
    auth: 'caller',
    body: { id: 'CreateSkillRequest', schema: createSkillBody, required: true, example: { name: 'Release notes', description: 'Turns merged PRs into release notes', category: 'development', systemPrompt: 'You write concise release notes.', tools: ['github'], visibility: 'team' } },
    responses: { 201: { description: 'The new skill', schema: r.skillView } },
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/skills/{id}',
    operationId: 'getSkill',
    tag: 'Skills',
    summary: 'One skill with every version, newest first',
    auth: 'caller',
    pathParams: skillId,
    responses: { 200: { description: 'The skill', schema: r.skillDetail } },
    errors: ['not_found'],
  },
  {
    method: 'put',
    path: '/v1/skills/{id}',
    operationId: 'updateSkill',
    tag: 'Skills',
    summary: 'Change name, description, category or visibility',
    description: '`systemPrompt`, `tools` and `modelTier` belong to versions: 400, use POST /skills/{id}/versions.',
    auth: 'caller',
    pathParams: skillId,
    body: { id: 'UpdateSkillRequest', schema: updateSkillBody, required: true, example: { description: 'Release notes grouped by area', visibility: 'public' } },
    responses: { 200: { description: 'The updated skill', schema: r.skillView } },
    errors: ['not_found', 'forbidden'],
  },
  {
    method: 'delete',
    path: '/v1/skills/{id}',
    operationId: 'deleteSkill',
    tag: 'Skills',
    summary: 'Delete a skill and its versions',
    auth: 'caller',
    pathParams: skillId,
    responses: { 204: { description: 'Deleted' } },
    errors: ['not_found', 'forbidden'],
  },
  {
    method: 'post',
    path: '/v1/skills/{id}/versions',
    operationId: 'createSkillVersion',
    tag: 'Skills',
    summary: 'Add the next immutable version',
    auth: 'caller',
    pathParams: skillId,
    body: { id: 'CreateSkillVersionRequest', schema: createVersionBody, required: true, example: { systemPrompt: 'Group notes by area.', notes: 'grouping' } },
    responses: { 201: { description: 'The new version', schema: r.skillVersion } },
    errors: ['not_found', 'forbidden', 'conflict'],
  },
  {
    method: 'get',
    path: '/v1/skills/{id}/versions/{version}',
    operationId: 'getSkillVersion',
    tag: 'Skills',
    summary: 'One version of a skill',
    auth: 'caller',
    pathParams: { ...skillId, version: versionParam.describe('Version number (1, 2, ...)') },
    responses: { 200: { description: 'The version', schema: r.skillVersion } },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/skills/{id}/publish',
    operationId: 'publishSkill',
    tag: 'Skills',
    summary: 'Publish to the marketplace (needs public visibility and a version)',
    auth: 'caller',
    pathParams: skillId,
    responses: { 200: { description: 'Published', schema: r.publishResult } },
    errors: ['not_found', 'forbidden', 'skill_not_publishable'],
  },
];

const tools: Operation[] = [
  {
    method: 'get',
    path: '/v1/tools',
    operationId: 'listConnectors',
    tag: 'Tools',
    summary: 'The MCP connector catalog',
    auth: 'caller',
    responses: { 200: { description: 'The catalog', schema: r.connectorList } },
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/tools/connections',
    operationId: 'listConnections',
    tag: 'Tools',
    summary: "The caller's active connections",
    description:
      "The spec's \"active connections of the caller\": every connection the caller created and has not deleted (deleting removes it), never another user's (admins included), newest first. Connections whose last check failed are listed too by default, so they can be fixed or deleted; `status` narrows the list.",
    auth: 'caller',
    query: listConnectionsQuery,
    responses: { 200: { description: 'The connections', schema: r.connectionList } },
    errors: [],
  },
  {
    method: 'post',
    path: '/v1/tools/connections',
    operationId: 'createConnection',
    tag: 'Tools',
    summary: 'Connect to a catalog connector (variables are encrypted, never returned)',
    description:
      '`env` must hold every `requiredEnvVars` entry of the connector and nothing it does not declare. Values that name a network location ' +
      '(URL, DSN, host) must resolve to public addresses, never the service\'s own stores, unless the operator lists them in ' +
      '`TOOLS_ALLOWED_HOSTS` (400 `bad_request`, `param` = `env.<NAME>`); file paths are relative to the organization\'s directory. ' +
      'Over `QUOTA_CONNECTIONS_PER_ORG`: 403 `quota_exceeded`.',
    auth: 'caller',
    body: { id: 'CreateConnectionRequest', schema: createConnectionBody, required: true, example: { toolId: 'github', name: 'Work GitHub', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_example' } } },
    responses: { 201: { description: 'The connection', schema: r.connectionDetail } },
    errors: ['quota_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/tools/connections/{id}',
    operationId: 'getConnection',
    tag: 'Tools',
    summary: 'One connection of the caller',
    auth: 'caller',
    pathParams: connectionId,
    responses: { 200: { description: 'The connection', schema: r.connectionDetail } },
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/tools/connections/{id}',
    operationId: 'deleteConnection',
    tag: 'Tools',
    summary: 'Delete a connection',
    auth: 'caller',
    pathParams: connectionId,
    responses: { 204: { description: 'Deleted' } },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/tools/connections/{id}/test',
    operationId: 'testConnection',
    tag: 'Tools',
    summary: 'Health test: start the connector, initialize and list its tools',
    description: 'A failing connector is a 200 with `status: error` and `testResult` naming the failed stage. More than TOOLS_TEST_CONCURRENCY tests at once answer 429.',
    auth: 'caller',
    pathParams: connectionId,
    responses: { 200: { description: 'The test result', schema: r.connectionTestResult } },
    errors: ['not_found'],
  },
];

const assistants: Operation[] = [
  {
    method: 'post',
    path: '/v1/assistants',
    operationId: 'createAssistant',
    tag: 'Assistants',
    summary: 'Create an assistant (with `trigger: {type: webhook}` it gets a webhook URL)',
    auth: 'caller',
    body: { id: 'CreateAssistantRequest', schema: createAssistantSchema, required: true, example: { name: 'Order triage', systemPrompt: 'Summarise the order event in one line.', model: 'standard', trigger: { type: 'webhook' } } },
    responses: { 201: { description: 'The new assistant', schema: r.assistantView } },
    errors: ['quota_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/assistants',
    operationId: 'listAssistants',
    tag: 'Assistants',
    summary: "The organization's assistants",
    auth: 'caller',
    responses: { 200: { description: 'The assistants', schema: r.assistantList } },
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/assistants/{id}',
    operationId: 'getAssistant',
    tag: 'Assistants',
    summary: 'One assistant',
    auth: 'caller',
    pathParams: assistantId,
    responses: { 200: { description: 'The assistant', schema: r.assistantView } },
    errors: ['not_found'],
  },
  {
    method: 'put',
    path: '/v1/assistants/{id}',
    operationId: 'updateAssistant',
    tag: 'Assistants',
    summary: 'Update an assistant (`trigger: null` revokes its webhook URL)',
    auth: 'caller',
    pathParams: assistantId,
    body: { id: 'UpdateAssistantRequest', schema: updateAssistantSchema, required: true, example: { description: 'Triage of order events', channels: [{ type: 'slack', target: '#orders' }] } },
    responses: { 200: { description: 'The updated assistant', schema: r.assistantView } },
    errors: ['not_found', 'forbidden'],
  },
  {
    method: 'delete',
    path: '/v1/assistants/{id}',
    operationId: 'deleteAssistant',
    tag: 'Assistants',
    summary: 'Delete an assistant',
    auth: 'caller',
    pathParams: assistantId,
    responses: { 204: { description: 'Deleted' } },
    errors: ['not_found', 'forbidden'],
  },
  {
    method: 'post',
    path: '/v1/assistants/{id}/webhook/regenerate',
    operationId: 'regenerateAssistantWebhook',
    tag: 'Assistants',
    summary: 'Replace the webhook URL (the old one answers 404 at once)',
    auth: 'caller',
    pathParams: assistantId,
    responses: { 200: { description: 'The assistant with its new webhookUrl', schema: r.assistantView } },
    errors: ['not_found', 'forbidden'],
  },
];

const webhooks: Operation[] = [
  {
    method: 'post',
    path: '/v1/webhooks/{webhookId}',
    operationId: 'receiveWebhook',
    tag: 'Webhooks',
    summary: 'Webhook ingress: run the assistant or automation with the JSON body as context',
    description:
      'The URL id is the credential (no other authentication). The 202 is sent once Temporal recorded the execution. Limited per webhook and per client IP (429 with Retry-After).',
    auth: 'webhookUrl',
    pathParams: { webhookId: z.string().regex(WEBHOOK_ID_PATTERN).describe('The webhook URL id (`wh_` and 32 base64url characters)') },
    headers: {
      'Idempotency-Key': {
        schema: z.string().regex(/^[\x21-\x7e]{1,255}$/),
        description: 'Repeats of one delivery with the same key return the same executionId and run once',
      },
    },
    body: { id: 'WebhookPayload', schema: z.unknown().describe('Any JSON value: the context of the run'), required: true, example: { event: 'order.created', data: { id: 1234, total: 99.5 } } },
    responses: {
      202: {
        description: 'Queued',
        schema: r.webhookAcknowledgment,
        headers: { 'X-RateLimit-Limit': 'Requests allowed per minute', 'X-RateLimit-Remaining': 'Left in this window', 'X-RateLimit-Reset': 'Seconds until the window resets' },
      },
    },
    errors: ['not_found', 'rate_limited', 'service_unavailable'],
  },
  {
    method: 'get',
    path: '/v1/webhooks/executions/{executionId}',
    operationId: 'getWebhookExecution',
    tag: 'Webhooks',
    summary: 'Status and result of a webhook execution',
    auth: 'caller',
    pathParams: { executionId: z.string().regex(EXECUTION_ID_PATTERN).describe('The `executionId` of the acknowledgment (`wex_` and 22 base64url characters)') },
    responses: { 200: { description: 'The execution', schema: r.webhookExecution } },
    errors: ['not_found'],
  },
];

export const workspaceOperations: Operation[] = [...skills, ...tools, ...assistants, ...webhooks];
