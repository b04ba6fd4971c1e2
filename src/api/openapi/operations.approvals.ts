// Registry entries of the approvals endpoints (issue 30): tool calls waiting for a person.
import { z } from 'zod';
import { approveBody, denyBody, listApprovalsQuery } from '../../approvals/approvals.schemas.js';
import type { Operation } from './registry.js';
import * as r from './responses.js';

const approvalId = { id: z.uuid().describe('Approval request id (UUID)') };
const whoDecides =
  "The owner of the run's automation (or of the execution's assistant), admins and the organization's owner decide. The decision is recorded, audited (`approval.approved` / `approval.denied`, with who decided) and sent to the waiting workflow. A request already decided, or expired, is 409.";

export const approvalOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/approvals',
    operationId: 'listApprovals',
    tag: 'Approvals',
    summary: "The organization's approval requests, newest first",
    description: 'Filter by `status` (pending, approved, denied, expired, cancelled), `automationId` or `assistantId`.',
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
    description: `${whoDecides} \`remember: true\` also makes the tool \`never\` for that automation (or assistant) from then on: its owner only (others 403 naming \`remember\`).`,
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
];
