// What a skills request may contain, and the documented limits. Every violation becomes
// 400 bad_request with `param` naming the first bad field (`tools[2]` for an array element).
import { z } from 'zod';
import { approvalRequiredSchema } from '../approval-policy/policy.js';
import { badRequest } from '../errors.js';
import { MODEL_TIERS, SKILL_STATUSES, SKILL_VISIBILITIES } from './entities.js';

export const SKILL_LIMITS = {
  nameLength: 100,
  descriptionLength: 2000,
  systemPromptLength: 50_000,
  notesLength: 2000,
  toolsPerVersion: 50,
  listDefaultLimit: 20,
  listMaxLimit: 100,
} as const;

/** Lowercase slug, 2 to 40 characters: productivity, development, data, customer-support. */
export const CATEGORY_PATTERN = /^[a-z][a-z0-9-]{1,39}$/;
/** Connector ids as the tools catalog names them: github, postgres, brave-search, fs.local. */
export const TOOL_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const name = z.string().trim().min(1, 'must not be empty').max(SKILL_LIMITS.nameLength, `must be at most ${SKILL_LIMITS.nameLength} characters`);
const description = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(SKILL_LIMITS.descriptionLength, `must be at most ${SKILL_LIMITS.descriptionLength} characters`);
const category = z
  .string()
  .regex(CATEGORY_PATTERN, 'must be a lowercase slug of 2 to 40 letters, digits or hyphens, starting with a letter (e.g. productivity, development, data)');
// The prompt is kept verbatim (whitespace can matter to a model); it only has to say something.
const systemPrompt = z
  .string()
  .max(SKILL_LIMITS.systemPromptLength, `must be at most ${SKILL_LIMITS.systemPromptLength} characters`)
  .refine((value) => value.trim().length > 0, 'must not be empty');
const modelTier = z.enum(MODEL_TIERS, { error: `must be one of ${MODEL_TIERS.join(', ')}` });
const visibility = z.enum(SKILL_VISIBILITIES, { error: `must be one of ${SKILL_VISIBILITIES.join(', ')}` });
const toolId = z.string().regex(TOOL_ID_PATTERN, 'must be a connector id: lowercase letters, digits, ".", "_" or "-", at most 64 characters');
const tools = z
  .array(toolId)
  .max(SKILL_LIMITS.toolsPerVersion, `must list at most ${SKILL_LIMITS.toolsPerVersion} tools`)
  .superRefine((ids, context) => {
    ids.forEach((id, index) => {
      if (ids.indexOf(id) !== index) context.addIssue({ code: 'custom', path: [index], message: `lists '${id}' twice` });
    });
  });
const notes = z.string().max(SKILL_LIMITS.notesLength, `must be at most ${SKILL_LIMITS.notesLength} characters`);

export const createSkillBody = z.strictObject({
  name,
  description,
  category,
  systemPrompt,
  modelTier: modelTier.default('standard'),
  tools: tools.default([]),
  approvalRequired: approvalRequiredSchema.default([]),
  visibility: visibility.default('private'),
});
export type CreateSkillInput = z.infer<typeof createSkillBody>;

export const updateSkillBody = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  category: category.optional(),
  visibility: visibility.optional(),
});
export type UpdateSkillInput = z.infer<typeof updateSkillBody>;

/** Omitted tools or modelTier carry over from the current version. */
export const createVersionBody = z.strictObject({
  systemPrompt,
  tools: tools.optional(),
  approvalRequired: approvalRequiredSchema.optional(),
  modelTier: modelTier.optional(),
  notes: notes.optional(),
});
export type CreateVersionInput = z.infer<typeof createVersionBody>;

export const listSkillsQuery = z.object({
  limit: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, `must be between 1 and ${SKILL_LIMITS.listMaxLimit}`)
    .max(SKILL_LIMITS.listMaxLimit, `must be between 1 and ${SKILL_LIMITS.listMaxLimit}`)
    .default(SKILL_LIMITS.listDefaultLimit),
  offset: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').default(0),
  visibility: visibility.optional(),
  status: z.enum(SKILL_STATUSES, { error: `must be one of ${SKILL_STATUSES.join(', ')}` }).optional(),
  category: category.optional(),
});
export type ListSkillsQuery = z.infer<typeof listSkillsQuery>;

export const skillIdParam = z.uuid('must be a skill id (UUID)');
export const versionParam = z
  .string()
  .regex(/^[1-9][0-9]{0,8}$/, 'must be a positive integer')
  .transform(Number);

/** Fields that belong to a version: a PUT naming one is told where they change. */
const VERSION_FIELDS = ['systemPrompt', 'tools', 'approvalRequired', 'modelTier'] as const;

/** Parses a PUT body; systemPrompt, tools and modelTier are refused before anything else. */
export function parseUpdateSkill(body: unknown): UpdateSkillInput {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const field = VERSION_FIELDS.find((key) => key in body);
    if (field) {
      throw badRequest(
        `'${field}' belongs to a skill version and cannot be changed with PUT; create a new version with POST /skills/{id}/versions`,
        field,
      );
    }
  }
  return parseInput(updateSkillBody, body);
}

/**
 * Parses `value` or throws 400 bad_request naming the first bad field. `root` names the value
 * itself when it is wrong as a whole (`body` for a body that is not an object).
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, root = 'body'): z.output<T> {
  const parsed = schema.safeParse(value, {
    error: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    throw badRequest(`Unknown field '${key}'`, paramOf([...issue.path, key], root));
  }
  const param = paramOf(issue.path, root);
  throw badRequest(issue.message === 'is required' ? `Missing required field '${param}'` : `Invalid '${param}': ${issue.message}`, param);
}

/** ['tools', 2] -> 'tools[2]'; [] -> the root name. */
export function paramOf(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root;
  return path.reduce<string>(
    (param, key) => (typeof key === 'number' ? `${param}[${key}]` : param ? `${param}.${String(key)}` : String(key)),
    '',
  );
}
