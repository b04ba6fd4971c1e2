// Request shapes of the assistants API, validated at the edge. Errors name the first bad field.
import { z } from 'zod';
import { toolApprovalsSchema } from '../approval-policy/policy.js';
import { SLACK_TOKEN_MESSAGE, SLACK_TOKEN_PATTERN } from '../channels/stored.js';
import { badRequest } from '../errors.js';

const channel = z.discriminatedUnion('type', [
  // The organization's own Slack bot token (write-only); required unless the same target already has one.
  z.object({ type: z.literal('slack'), target: z.string().trim().min(1).max(200), token: z.string().regex(SLACK_TOKEN_PATTERN, SLACK_TOKEN_MESSAGE).optional() }),
  z.object({ type: z.literal('email'), target: z.email() }),
  // The signing secret of X-Service-Signature; generated (and shown once) when absent.
  z.object({ type: z.literal('webhook'), target: z.url({ protocol: /^https?$/ }).max(2000), secret: z.string().min(16).max(200).optional() }),
]);

const trigger = z.object({ type: z.literal('webhook') }).strict();

const assistantFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000),
  systemPrompt: z.string().min(1).max(100_000),
  /** A model id or a tier; the gateway resolves it at run time. */
  model: z.string().trim().min(1).max(200),
  skillId: z.string().trim().min(1).max(100).nullable(),
  /** Pins a version of that skill; absent or null = its current version now (re-pinning). */
  skillVersion: z.number().int().min(1).max(1_000_000).nullable(),
  tools: z.array(z.string().trim().min(1).max(200)).max(50),
  /** Which tool calls wait for a person (src/approval-policy/policy.ts). */
  toolApprovals: toolApprovalsSchema,
  channels: z.array(channel).max(20),
  trigger: trigger.nullable(),
};

export const createAssistantSchema = z
  .object({
    ...assistantFields,
    description: assistantFields.description.default(''),
    model: assistantFields.model.default('standard'),
    skillId: assistantFields.skillId.default(null),
    skillVersion: assistantFields.skillVersion.default(null),
    tools: assistantFields.tools.default([]),
    toolApprovals: assistantFields.toolApprovals.default({}),
    channels: assistantFields.channels.default([]),
    trigger: assistantFields.trigger.default(null),
  })
  .strict();

export const updateAssistantSchema = z.object(assistantFields).partial().strict();

export type CreateAssistantInput = z.infer<typeof createAssistantSchema>;
export type UpdateAssistantInput = z.infer<typeof updateAssistantSchema>;
export type ChannelInput = z.infer<typeof channel>;

/** Parses a request value or throws 400 bad_request naming the first bad field. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, root = 'body'): T {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : root;
  const keys = issue?.code === 'unrecognized_keys' ? `: ${issue.keys.join(', ')}` : '';
  throw badRequest(`Invalid ${param}: ${issue?.message ?? 'invalid value'}${keys}`, issue?.code === 'unrecognized_keys' ? issue.keys[0] ?? param : param);
}
