// The header that carries a workflow's organization to its activities (workflow-interceptors.ts
// sets it, activity-scope.ts reads it). Workflow-safe.
export const ORGANIZATION_HEADER = 'organization-id';
