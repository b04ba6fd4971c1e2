// Workflow interceptors bundled into the sandbox: every activity a workflow schedules carries its
// organization in a header (headers are not encrypted; an id is no customer text), so the
// worker's codec encrypts the activity's result and failure under that organization's key.
import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInput, LocalActivityInput, Next, WorkflowInterceptorsFactory, WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';
import { ORGANIZATION_HEADER } from './headers.js';
import { workflowOrganization } from './workflow-converter.js';

function withOrganization<T extends ActivityInput | LocalActivityInput>(input: T): T {
  const organizationId = workflowOrganization();
  if (!organizationId) return input;
  return { ...input, headers: { ...input.headers, [ORGANIZATION_HEADER]: defaultPayloadConverter.toPayload(organizationId) } };
}

class OrganizationHeaderInterceptor implements WorkflowOutboundCallsInterceptor {
  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>) {
    return next(withOrganization(input));
  }

  scheduleLocalActivity(input: LocalActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>) {
    return next(withOrganization(input));
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => ({ outbound: [new OrganizationHeaderInterceptor()] });
