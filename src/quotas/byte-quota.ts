// A byte quota per organization (QUOTA_STORED_RESPONSE_BYTES), checked before a write against the
// organization's running total. The total lives in the database, updated by the very statements
// that store and free the bytes; those statements return it, and the owner of the quota reports
// it here (`learn`). So the check on the hot path is a map lookup, not a round trip: this process
// reads the total only the first time it meets an organization, and again when the organization
// is over its limit and its total is older than REFRESH_MS (deletes on other processes, or the
// expiry of old bytes, may have made room: that read deletes the organization's expired rows first,
// so an organization over its limit is not kept there by rows only the hourly purge would free). The quota is soft by what is in flight: writes that
// passed the check before one of them crossed the limit are still stored, and a process that has
// not stored for an organization lately may pass one more before it learns the new total.
import { quotaExceeded } from './quota.js';

export interface ByteQuotaOptions {
  /** Bytes per organization; 0 refuses every write. */
  limit: number;
  /** The variable that sets it, named in the 403. */
  env: string;
  /** What is counted, for the 403's message ("stored responses"). */
  resource: string;
  /** The request field that asked for the write (`store`). */
  param: string;
  /** The organization's total now, read from the database. */
  readTotal(organizationId: string): Promise<number>;
  /** The same after deleting what has expired (what an organization over its limit gets read). */
  freeExpired(organizationId: string): Promise<number>;
}

/** How old a total may be before a refusal reads it again. */
const REFRESH_MS = 5_000;
/** Organizations whose totals are remembered; the oldest is forgotten (and read again when met). */
const REMEMBERED = 10_000;

export class OrganizationByteQuota {
  private readonly totals = new Map<string, { bytes: number; at: number }>();

  constructor(private readonly options: ByteQuotaOptions) {}

  /** 403 quota_exceeded when the organization's total plus `adding` would pass the limit. */
  async assertRoom(organizationId: string, adding: number): Promise<void> {
    const { limit } = this.options;
    let known = this.totals.get(organizationId) ?? (await this.refresh(organizationId, this.options.readTotal));
    if (known.bytes + adding <= limit) return;
    if (performance.now() - known.at >= REFRESH_MS) known = await this.refresh(organizationId, this.options.freeExpired);
    if (known.bytes + adding <= limit) return;
    const { env, resource, param } = this.options;
    throw quotaExceeded(`${resource}: at most ${limit} bytes per organization (${env}), ${known.bytes} stored; delete some first`, param);
  }

  /** The organization's total as a statement that changed it returned. */
  learn(organizationId: string, bytes: number): void {
    this.totals.delete(organizationId);
    this.totals.set(organizationId, { bytes, at: performance.now() });
    if (this.totals.size > REMEMBERED) this.totals.delete(this.totals.keys().next().value!);
  }

  private async refresh(organizationId: string, read: (organizationId: string) => Promise<number>): Promise<{ bytes: number; at: number }> {
    this.learn(organizationId, await read(organizationId));
    return this.totals.get(organizationId)!;
  }
}
