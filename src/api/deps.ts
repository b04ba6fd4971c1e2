// What the API and the activities are built from. Everything is passed in, so tests build the
// app and the worker on the real stack with their own clock, task queue and key prefix.
import type { BudgetGuard } from '../billing/budget.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { SecretBox } from '../crypto/secrets.js';
import type { Orm } from '../db/orm.js';
import type { Gateway } from '../gateway/index.js';
import type { Logger } from '../logger.js';
import type { Mailer } from '../mail/mailer.js';
import type { SharedState } from '../redis.js';
import type { TemporalHandle } from '../temporal.js';

export interface AppDeps {
  config: Config;
  logger: Logger;
  orm: Orm;
  shared: SharedState;
  temporal: TemporalHandle;
  clock: Clock;
  gateway: Gateway;
  budget: BudgetGuard;
  mailer: Mailer;
  secrets: SecretBox;
}
