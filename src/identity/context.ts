// What an identity service needs for one request: its unit of work, time, the runtime's credential
// cache (which fans credential changes out to every instance), and who is calling.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import type { Caller } from './caller.js';
import type { CredentialCache } from './credential-cache.js';

export interface IdentityContext {
  em: EntityManager;
  clock: Clock;
  credentials: CredentialCache;
  caller: Caller;
  requestId?: string | undefined;
}
