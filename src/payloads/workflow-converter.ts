// The payload converter bundled into the workflow sandbox (`payloadConverterPath`): a workflow's
// payloads belong to the organization of its OrganizationId search attribute, which every
// workflow of this service is started with (the service's own workflows have none: service key).
import { inWorkflowContext, workflowInfo } from '@temporalio/workflow';
import { SEARCH_ATTRIBUTES } from '../search-attributes.js';
import { OrganizationPayloadConverter } from './converter.js';

export function workflowOrganization(): string | undefined {
  if (!inWorkflowContext()) return undefined;
  return workflowInfo().typedSearchAttributes.get(SEARCH_ATTRIBUTES.OrganizationId);
}

export const payloadConverter = new OrganizationPayloadConverter(workflowOrganization);
