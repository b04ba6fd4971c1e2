// Runs the first-start bootstrap and tells the operator the one thing they need: the owner's
// API key. A generated key is printed once, to the terminal only (never to the JSON log), since
// only its hash is kept.
import type { Config } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../logger.js';
import { bootstrapOwner, type BootstrapResult } from './bootstrap.js';

export async function bootstrapOnFirstStart(orm: Orm, config: Config, logger: Logger): Promise<BootstrapResult> {
  const result = await bootstrapOwner(orm.em.fork(), {
    ownerEmail: config.BOOTSTRAP_OWNER_EMAIL,
    organizationName: config.BOOTSTRAP_ORGANIZATION_NAME,
    ownerApiKey: config.BOOTSTRAP_OWNER_API_KEY,
  });
  if (result.created) {
    logger.info(
      { organizationId: result.organizationId, ownerId: result.ownerId, keySource: result.generated ? 'generated' : 'BOOTSTRAP_OWNER_API_KEY' },
      'bootstrapped organization and owner',
    );
  }
  return result;
}
