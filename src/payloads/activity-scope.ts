// The organization of the activity running now, for the worker's codec: activity results and
// failures are converted outside the sandbox by the SDK's default converter, so they carry no
// `organization-id` of their own. The activity interceptor reads the header the workflow set
// (workflow-interceptors.ts); the codec asks here while it encodes that activity's completion.
import { asyncLocalStorage, type Context } from '@temporalio/activity';
import { defaultPayloadConverter, type SerializationContext } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { ORGANIZATION_HEADER } from './headers.js';

const organizationOfActivity = new WeakMap<Context, string>();

export const organizationActivityInterceptor: ActivityInterceptorsFactory = (context) => ({
  inbound: {
    async execute(input, next) {
      const header = input.headers[ORGANIZATION_HEADER];
      if (header) organizationOfActivity.set(context, defaultPayloadConverter.fromPayload<string>(header));
      return next(input);
    },
  },
});

/**
 * The organization of the payload being encoded, when it is the completion of the activity
 * whose context is current (the ids must match: a context that merely leaked into other async
 * work names nothing).
 */
export function currentActivityOrganization(serialization: SerializationContext | undefined): string | undefined {
  if (serialization?.type !== 'activity') return undefined;
  const context = asyncLocalStorage.getStore() as Context | undefined;
  if (!context) return undefined;
  const { activityId, workflowExecution } = context.info;
  if (activityId !== serialization.activityId || workflowExecution?.workflowId !== serialization.workflowId) return undefined;
  return organizationOfActivity.get(context);
}
