// What an automation names must exist when it is saved, not fail its runs later: the `model`
// (a model id or tier of the gateway config) and each entry of `tools`. `tools` holds catalog
// connector ids; a run resolves each to its owner's newest connection of that connector
// (src/connectors/tool-use.ts), so an id is usable when it is in the catalog and the owner has a
// connection to it in the organization. Skills are checked by resolveSkillReference.
import type { AppDeps } from '../runtime-deps.js';
import { catalogFor } from '../connectors/catalog.js';
import { ToolConnection } from '../connectors/entities.js';
import { badRequest } from '../errors.js';
import { assertModelAllowed } from '../gateway/access.js';
import type { Caller } from '../identity/caller.js';

type Deps = Pick<AppDeps, 'config' | 'orm' | 'gateway'>;

/**
 * 400 naming `model` unless the gateway serves it as a model id or a tier; the message names no
 * other model. A key limited to some models gets the gateway's one answer for a model outside its
 * list, 403 model_not_allowed, whether the model exists or not.
 */
export function assertKnownModel(deps: Pick<Deps, 'gateway'>, model: string, caller: Pick<Caller, 'keyLimits'>): void {
  assertModelAllowed(caller, model);
  const names = deps.gateway.models();
  if (!names.includes(model)) {
    throw badRequest(`The model '${model}' is not a model or tier of the gateway (GET /v1/models lists those you may use)`, 'model');
  }
}

/** 400 naming `tools[i]` unless each connector is in the catalog and the owner has a connection to it. */
export async function assertToolsUsable(deps: Deps, organizationId: string, ownerId: string, tools: readonly string[]): Promise<void> {
  if (tools.length === 0) return;
  const catalog = catalogFor(deps.config);
  const connected = new Set(
    (await deps.orm.em.fork().find(ToolConnection, { organizationId, userId: ownerId, toolId: { $in: [...new Set(tools)] } }, { fields: ['toolId'] }))
      .map((connection) => connection.toolId),
  );
  tools.forEach((toolId, index) => {
    if (!catalog.find(toolId)) {
      throw badRequest(`'${toolId}' is not a connector of the catalog (see GET /tools); tools lists connector ids`, `tools[${index}]`);
    }
    if (!connected.has(toolId)) {
      throw badRequest(`The automation's owner has no connection to '${toolId}' (create one with POST /tools/connections)`, `tools[${index}]`);
    }
  });
}
