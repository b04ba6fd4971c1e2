// Registry entries of the approvals endpoints: tool calls waiting for a person.
import { z } from 'zod';
import { approveBody, denyBody, listApprovalsQuery } from '../../approvals/approvals.schemas.js';
import { LINK_DECISIONS } from '../../approvals/links.js';
import type { Operation } from './registry.js';
import * as r from './responses.js';

const approvalId = { id: z.uuid().describe('Approval request id (UUID)') };
const linkParams = { ...approvalId, decision: z.enum(LINK_DECISIONS).describe('What the link decides') };
const linkQuery = z.object({
  expires: z.string().describe("The request's expiry (milliseconds since the epoch), as signed"),
  channel: z.string().describe('The channel the link was sent to, as signed (`slack:#ops`, `email:a@b.c`, `webhook:https://...`)'),
  sig: z.string().describe('HMAC-SHA256 (base64url) under a key derived from SECRET_KEY over the id, decision, expiry and channel'),
});
const linkErrors = "A signature that does not match (another request, the other decision, an edited expiry or channel) is 403 naming `sig`; a link past its request's expiry is 410 naming `expires`.";
const whoDecides =
  "The owner of the run's automation (or of the execution's assistant; for a /v1/mcp call, the API key's user), admins and the organization's owner decide. The decision is recorded, audited (`approval.approved` / `approval.denied`, with who decided) and sent to the waiting workflow. A request already decided, or expired, is 409.";

export const approvalOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/approvals',
    operationId: 'listApprovals',
    tag: 'Approvals',
    summary: "The organization's approval requests, newest first",
    description:
      'Filter by `status` (pending, approved, denied, expired, cancelled), `automationId` or `assistantId`. A member sees the requests of runs and assistants, and of `/v1/mcp` calls only those made with their own API keys; admins and the owner see all.',
    auth: 'caller',
    query: listApprovalsQuery,
    responses: { 200: { description: 'The requests', schema: r.approvalList } },
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/approvals/{id}',
    operationId: 'getApproval',
    tag: 'Approvals',
    summary: 'One approval request',
    description: "A `/v1/mcp` call's request is 404 to a member other than its key's user.",
    auth: 'caller',
    pathParams: approvalId,
    responses: { 200: { description: 'The request', schema: r.approvalView } },
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/approvals/{id}/approve',
    operationId: 'approveToolCall',
    tag: 'Approvals',
    summary: 'Approve a waiting tool call: the run makes the call and continues',
    description: `${whoDecides} \`remember: true\` also makes the tool \`never\` for that automation (or assistant) from then on: its owner only (others 403 naming \`remember\`; a /v1/mcp call, which has neither, 403 naming \`remember\` too).`,
    auth: 'caller',
    pathParams: approvalId,
    body: { id: 'ApproveRequest', schema: approveBody, required: false, example: { remember: false } },
    responses: { 200: { description: 'The decided request', schema: r.approvalView } },
    errors: ['not_found', 'forbidden', 'conflict'],
  },
  {
    method: 'post',
    path: '/v1/approvals/{id}/deny',
    operationId: 'denyToolCall',
    tag: 'Approvals',
    summary: 'Deny a waiting tool call: the model is told, with the reason, and continues',
    description: whoDecides,
    auth: 'caller',
    pathParams: approvalId,
    body: { id: 'DenyRequest', schema: denyBody, required: false, example: { reason: 'Not on the production database' } },
    responses: { 200: { description: 'The decided request', schema: r.approvalView } },
    errors: ['not_found', 'forbidden', 'conflict'],
  },
  {
    method: 'get',
    path: '/v1/approval-links/{id}/{decision}',
    operationId: 'openApprovalLink',
    tag: 'Approvals',
    summary: 'The confirmation page of a signed approval link (no authentication: the link is the credential)',
    description: `Sent to the run's channels with each request. Shows the tool and its arguments and a button that POSTs the decision; a GET never decides (link scanners follow GETs). ${linkErrors}`,
    auth: 'none',
    pathParams: linkParams,
    query: linkQuery,
    responses: { 200: { description: 'An HTML page', schema: z.string(), contentType: 'text/html' } },
    errors: ['forbidden', 'not_found', 'gone'],
  },
  {
    method: 'post',
    path: '/v1/approval-links/{id}/{decision}',
    operationId: 'decideByApprovalLink',
    tag: 'Approvals',
    summary: 'Decide a request with a signed link (single-use; audited with the channel it was sent to)',
    description: `The first decision on the request wins: any later use of a link is 409. A browser (\`Accept: text/html\`) gets an HTML page; any other client gets the decided request. ${linkErrors}`,
    auth: 'none',
    pathParams: linkParams,
    query: linkQuery,
    responses: { 200: { description: 'The decided request', schema: r.approvalView } },
    errors: ['forbidden', 'not_found', 'gone', 'conflict'],
  },
];
