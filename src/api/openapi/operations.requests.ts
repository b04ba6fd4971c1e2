// Registry entry of the gateway's request records (GET /v1/gateway/requests), with its response
// schema: the view src/gateway/request-records.ts builds.
import { z } from 'zod';
import { GATEWAY_OUTCOMES } from '../../gateway/entities.js';
import { requestRecordsQuery, TOTAL_CAP } from '../../gateway/request-records.schemas.js';
import { USAGE_SOURCES } from '../../billing/entities.js';
import { apiSchemas, type Operation } from './registry.js';

const requestRecord = z
  .object({
    id: z.string(),
    createdAt: z.string().describe('ISO 8601 date-time in UTC: when the request ended'),
    modelRequested: z.string().describe('What the client sent as `model` (a model id or a tier)'),
    model: z.string().nullable().describe('The model that answered; null when none did'),
    provider: z.string().nullable(),
    userId: z.string().describe('The user the call was made as'),
    apiKeyId: z.string().nullable().describe('null: a call without an API key (a browser session, an automation run)'),
    source: z.enum(USAGE_SOURCES),
    runId: z.string().nullable().describe('The run or webhook execution the call belongs to'),
    requestId: z.string().nullable(),
    stream: z.boolean(),
    status: z.number().int().describe('The HTTP status the client got (499: the client went away)'),
    outcome: z.enum(GATEWAY_OUTCOMES),
    errorCode: z.string().nullable().describe('The error code the client got, e.g. `rate_limited`'),
    attempts: z.number().int().describe('Upstream targets tried'),
    latencyMs: z.number().int(),
    inputTokens: z.number().int().describe('Every prompt token, the cached ones included'),
    outputTokens: z.number().int(),
    cacheReadTokens: z.number().int().describe("Of inputTokens, read from the upstream's prompt cache"),
    cacheWriteTokens: z.number().int().describe("Of inputTokens, written to the upstream's prompt cache"),
    cost: z.number().describe('USD'),
    estimated: z.boolean().describe('Tokens counted by the gateway because the upstream did not report them'),
    cached: z.boolean().describe("Answered from the gateway's response cache (no upstream call, cost 0)"),
  })
  .register(apiSchemas, { id: 'GatewayRequest' });

const requestRecordList = z
  .object({
    requests: z.array(requestRecord),
    total: z.number().int().describe(`The records that match the filters, counted up to ${TOTAL_CAP.toLocaleString('en-US')}`),
    totalExact: z.boolean().describe(`False when more than ${TOTAL_CAP.toLocaleString('en-US')} records match: \`total\` is then a lower bound (narrow the list with from and to)`),
  })
  .register(apiSchemas, { id: 'GatewayRequestList' });

export const requestRecordOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/gateway/requests',
    operationId: 'listGatewayRequests',
    tag: 'Audit log',
    summary: "The gateway's request records, newest first (one page)",
    description:
      'One record per model call through the gateway (chat completions, messages, responses, embeddings, and the model steps of runs), answered or not. ' +
      "Admins and the owner see the organization's records; a member sees only the calls made as them (their keys, their session, the runs they own). " +
      `\`total\` counts the records that match the filters, up to ${TOTAL_CAP.toLocaleString('en-US')} (\`totalExact\` says whether more match). The prompt text and DLP findings are not listed.`,
    auth: 'caller',
    query: requestRecordsQuery,
    responses: { 200: { description: 'One page of request records', schema: requestRecordList } },
    errors: [],
  },
];
