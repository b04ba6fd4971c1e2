// Who may change an automation: its creator, and the admins and owner of its organization.
// Everyone in the organization reads it and its runs. Its runs act as its creator (the creator's
// tool connections, the creator's usage, skills the creator can see), so another member changing
// what it does, or starting it, would act with someone else's account.
import { forbidden } from '../errors.js';
import { hasRole, type Caller } from '../identity/caller.js';
import type { Automation } from './entities.js';

export function canManageAutomation(automation: Pick<Automation, 'createdBy'>, caller: Caller): boolean {
  return automation.createdBy === caller.userId || hasRole(caller, 'admin');
}

export function assertCanManageAutomation(automation: Pick<Automation, 'createdBy'>, caller: Caller): void {
  if (!canManageAutomation(automation, caller)) throw forbidden('Only the creator of an automation, admins and the owner may change or run it');
}
