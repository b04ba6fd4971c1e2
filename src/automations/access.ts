// Who may do what with an automation (docs/design.md "Trust"). Everyone in the organization
// reads it and its runs. Its runs act as its owner (`ownerId`: the owner's role, tool connections,
// skill access and usage), so only the owner changes what it runs (prompt, model, tools, skill,
// channels, which tool calls wait for approval): anyone else doing so would act with the owner's account. Admins and the
// organization's owner also manage its lifecycle (name, description, schedule, pause, activate,
// run now, delete) and may take ownership, after which it runs as them. Its webhook URLs are the
// owner's alone (src/automations/automation-webhooks.service.ts): what they send is a run's input.
import { AppError, forbidden } from '../errors.js';
import { hasRole, type Caller } from '../identity/caller.js';
import type { Automation } from './entities.js';

/** The fields that decide what a run does, as the update body names them. */
export const RUN_CONTENT_FIELDS = ['systemPrompt', 'model', 'tools', 'toolApprovals', 'channels', 'skillId', 'skillVersion'] as const;

export function canManageAutomation(automation: Pick<Automation, 'ownerId'>, caller: Caller): boolean {
  return automation.ownerId === caller.userId || hasRole(caller, 'admin');
}

export function assertCanManageAutomation(automation: Pick<Automation, 'ownerId'>, caller: Caller): void {
  if (!canManageAutomation(automation, caller)) throw forbidden('Only the owner of an automation, admins and the organization owner may change or run it');
}

/** 403 naming the first run-content field of `input` unless the caller owns the automation. */
export function assertCanChangeRunContent(automation: Pick<Automation, 'ownerId'>, caller: Caller, input: object): void {
  if (automation.ownerId === caller.userId) return;
  const field = RUN_CONTENT_FIELDS.find((name) => (input as Record<string, unknown>)[name] !== undefined);
  if (field) {
    throw new AppError('forbidden', `Only the automation's owner changes what it runs (${field}); take ownership first`, { param: field });
  }
}

export function assertCanTakeOwnership(caller: Caller): void {
  if (!hasRole(caller, 'admin')) throw forbidden('Only admins and the organization owner take ownership');
}
