// The query of GET /v1/gateway/requests (the gateway's request records), parsed at the edge with
// zod: one page (limit, offset) and the filters. An unknown parameter is 400 naming it.
import { z } from 'zod';

/** An ISO 8601 date (`2026-11-01`) or date-time with a zone (`2026-11-01T12:00:00Z`). */
const isoDateOrDateTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone',
});

/** `success` (HTTP status below 400), `error` (400 and above), a class (`4xx`) or one status (`429`). */
export const STATUS_FILTER = /^(success|error|[1-5]xx|[1-5]\d\d)$/;

/** Matching records counted at most; past it `total` is this and `totalExact` false. */
export const TOTAL_CAP = 10_000;

export const requestRecordsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  model: z.string().trim().min(1, 'must not be empty').max(200).optional().describe('A model id or tier: the model the client asked for or the one that answered'),
  apiKeyId: z.uuid('must be a valid id').optional().describe('Only the requests made with this API key'),
  status: z
    .string()
    .regex(STATUS_FILTER, 'must be success, error, a status class such as 4xx, or an HTTP status code such as 429')
    .optional()
    .describe('`success` (HTTP status below 400), `error` (400 and above), a class (`2xx`, `4xx`, `5xx`) or one HTTP status (`429`)'),
  from: isoDateOrDateTime.optional().describe('Inclusive start of the time range'),
  to: isoDateOrDateTime.optional().describe('Exclusive end of the range; a date-only `to` includes that whole day (UTC)'),
});
export type RequestRecordsQuery = z.infer<typeof requestRecordsQuery>;
