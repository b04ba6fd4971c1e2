// Request shapes of the automation endpoints (zod 4). Cron syntax, time zone and the minimum
// interval are checked by the service (they need the configuration), not here.
import { z } from 'zod';
import { toolApprovalsSchema } from '../approval-policy/policy.js';
import { SLACK_TOKEN_MESSAGE, SLACK_TOKEN_PATTERN } from '../channels/stored.js';
import { AppError, badRequest } from '../errors.js';
import { AUTOMATION_STATUSES, RUN_STATUSES } from './entities.js';

const slackChannel = z.object({
  type: z.literal('slack'),
  target: z.string().regex(/^#?[a-z0-9][a-z0-9._-]{0,79}$|^[CGD][A-Z0-9]{6,}$/, 'a Slack channel name (#reports) or id'),
  /** The organization's own Slack bot token (write-only); required unless the same target already has one. */
  token: z.string().regex(SLACK_TOKEN_PATTERN, SLACK_TOKEN_MESSAGE).optional(),
});

const emailChannel = z.object({
  type: z.literal('email'),
  target: z.email().max(320),
});

const webhookChannel = z.object({
  type: z.literal('webhook'),
  target: z.url({ protocol: /^https?$/ }).max(2000),
  /** Signing secret; generated (and shown once) when absent. */
  secret: z.string().min(16).max(200).optional(),
});

export const channelSchema = z.discriminatedUnion('type', [slackChannel, emailChannel, webhookChannel]);
export type ChannelInput = z.infer<typeof channelSchema>;

const toolId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'a connector id');

const fields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000),
  systemPrompt: z.string().min(1).max(100_000),
  model: z.string().trim().min(1).max(200),
  schedule: z.string().trim().min(1).max(200),
  timezone: z.string().trim().min(1).max(64),
  tools: z.array(toolId).max(50),
  /** Which tool calls wait for a person: `<connectorId>__<toolName>` or `<connectorId>__*` -> always | never. */
  toolApprovals: toolApprovalsSchema,
  channels: z.array(channelSchema).max(20),
  status: z.enum(AUTOMATION_STATUSES),
  /** A skill whose prompt, tools and tier the runs use; null = none. */
  skillId: z.uuid('must be a skill id (UUID)').nullable(),
  /** Pins a version of that skill; null or absent = its latest version when a run starts. */
  skillVersion: z.number().int().min(1).max(1_000_000).nullable(),
};

export const createAutomationSchema = z.strictObject({
  name: fields.name,
  description: fields.description.default(''),
  systemPrompt: fields.systemPrompt,
  model: fields.model.default('standard'),
  schedule: fields.schedule,
  timezone: fields.timezone.default('UTC'),
  tools: fields.tools.default([]),
  toolApprovals: fields.toolApprovals.default({}),
  channels: fields.channels.default([]),
  status: fields.status.default('active'),
  skillId: fields.skillId.default(null),
  skillVersion: fields.skillVersion.default(null),
});
export type CreateAutomationInput = z.infer<typeof createAutomationSchema>;

export const updateAutomationSchema = z.strictObject({
  name: fields.name.optional(),
  description: fields.description.optional(),
  systemPrompt: fields.systemPrompt.optional(),
  model: fields.model.optional(),
  schedule: fields.schedule.optional(),
  timezone: fields.timezone.optional(),
  tools: fields.tools.optional(),
  toolApprovals: fields.toolApprovals.optional(),
  channels: fields.channels.optional(),
  status: fields.status.optional(),
  skillId: fields.skillId.optional(),
  skillVersion: fields.skillVersion.optional(),
});
export type UpdateAutomationInput = z.infer<typeof updateAutomationSchema>;

const queryInteger = (fallback: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'an integer')
    .optional()
    .transform((value) => (value === undefined ? fallback : Number(value)));

export const listRunsQuerySchema = z.object({
  limit: queryInteger(20).pipe(z.number().int().min(1).max(100)),
  offset: queryInteger(0).pipe(z.number().int().min(0)),
  status: z.enum(RUN_STATUSES).optional(),
});
export type ListRunsQuery = z.infer<typeof listRunsQuerySchema>;

export const automationIdSchema = z.uuid();

/** Parses `value` or throws 400 bad_request naming the first bad field. */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, paramPrefix?: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index ? '.' : ''}${String(part)}`)).join('') ?? '';
  const param = [paramPrefix, path].filter(Boolean).join('.') || null;
  throw issue?.code === 'unrecognized_keys'
    ? new AppError('bad_request', `Unknown field: ${issue.keys.join(', ')}`, { param: issue.keys[0] ?? param })
    : badRequest(`Invalid ${param ?? 'request'}: ${issue?.message ?? 'invalid value'}`, param);
}
