// Search attributes the workflows set, so operators can filter runs in the Web UI.
// Deterministic-safe: imported by workflow code as well as by the dev-server provisioning.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const SEARCH_ATTRIBUTES = {
  OrganizationId: defineSearchAttributeKey('OrganizationId', SearchAttributeType.KEYWORD),
  AutomationId: defineSearchAttributeKey('AutomationId', SearchAttributeType.KEYWORD),
  TriggerType: defineSearchAttributeKey('TriggerType', SearchAttributeType.KEYWORD),
} as const;

/** `--search-attribute Name=Keyword` arguments for `temporal server start-dev`. */
export function searchAttributeArgs(): string[] {
  return Object.values(SEARCH_ATTRIBUTES).flatMap((key) => ['--search-attribute', `${key.name}=Keyword`]);
}
