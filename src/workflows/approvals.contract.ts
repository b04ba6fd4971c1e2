// The approval signals a waiting run (`run/<runId>`) or webhook execution (`webhook/<executionId>`)
// takes: the API sends them once it recorded a decision; an operator sends them from the Web UI or
// `temporal workflow signal --name approve --input '{"approvalId":"<id>"}'` (a bare id string too).
import { defineSignal } from '@temporalio/workflow';

export interface ApprovalSignal {
  approvalId: string;
  /** For `deny`: why, handed to the model with the refusal. */
  reason?: string;
}

export const approveSignal = defineSignal<[ApprovalSignal | string]>('approve');
export const denySignal = defineSignal<[ApprovalSignal | string]>('deny');

/**
 * How long waits for approval may add to a run's Temporal timeout (its hour of work): 10 model
 * turns of at most APPROVAL_TIMEOUT_SECONDS (3 days at most) each.
 */
export const RUN_APPROVAL_WAIT_LIMIT_MS = 30 * 24 * 60 * 60 * 1000;

/** The outcome of one request as the workflow learns it. */
export interface SettledApproval {
  id: string;
  status: 'approved' | 'denied' | 'expired' | 'cancelled';
  reason: string | null;
}

/** A request the workflow asks to record: one tool call of a model turn. */
export interface ApprovalRequestInput {
  id: string;
  /** `<connectorId>__<toolName>` */
  tool: string;
  /** The model's arguments (JSON text); stored and shown after DLP masking. */
  arguments: string;
}

/** Whose call waits: a run of an automation, or a webhook execution of an assistant. */
export type ApprovalSubject = { runId: string } | { executionId: string };
