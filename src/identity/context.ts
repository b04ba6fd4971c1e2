// What an identity service needs for one request: its unit of work, time, the shared state that
// fans out credential changes, and who is calling.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import type { SharedState } from '../redis.js';
import type { Caller } from './caller.js';

export interface IdentityContext {
  em: EntityManager;
  clock: Clock;
  shared: SharedState;
  caller: Caller;
  requestId?: string | undefined;
}
