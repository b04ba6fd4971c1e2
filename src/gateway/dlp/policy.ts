// Per-organization DLP policy: one action per detector. Safe defaults: secrets, cards, SSNs and
// IBANs are blocked; e-mail addresses and phone numbers are logged. Organizations change actions
// with PUT /dlp/policy; policies are cached per process for a few seconds.
import type { Clock } from '../../clock.js';
import type { Orm } from '../../db/orm.js';
import { DlpPolicyRecord } from '../entities.js';
import { DETECTOR_TYPES, type DetectorType } from './detectors.js';

export const DLP_ACTIONS = ['block', 'mask', 'log', 'off'] as const;
export type DlpAction = (typeof DLP_ACTIONS)[number];
export type DlpPolicy = Record<DetectorType, DlpAction>;

export const DEFAULT_DLP_POLICY: Readonly<DlpPolicy> = Object.freeze(
  Object.fromEntries(DETECTOR_TYPES.map((type) => [type, type === 'email' || type === 'phone' ? 'log' : 'block'])) as DlpPolicy,
);

export interface DlpPolicyView {
  detectors: DlpPolicy;
  updatedAt: string | null;
}

/** How long another API instance may serve an organization's previous policy. */
const CACHE_TTL_MS = 5_000;

export class DlpPolicies {
  private readonly cache = new Map<string, { policy: DlpPolicy; expiresAt: number }>();
  private readonly loading = new Map<string, Promise<DlpPolicy>>();
  /** Counts this instance's policy changes. */
  private changes = 0;

  constructor(private readonly orm: Orm, private readonly clock: Clock) {}

  /** The effective policy while this instance's cached copy is fresh, else undefined (then `policyFor`). */
  cachedPolicy(organizationId: string): DlpPolicy | undefined {
    const cached = this.cache.get(organizationId);
    return cached && cached.expiresAt > this.clock.now().getTime() ? cached.policy : undefined;
  }

  /** The effective policy (defaults for detectors the organization never set). */
  async policyFor(organizationId: string): Promise<DlpPolicy> {
    const cached = this.cachedPolicy(organizationId);
    if (cached) return cached;
    const now = this.clock.now().getTime();
    // One read per organization at a time: when the entry expires under load, the calls that
    // arrive meanwhile wait for the same query instead of each sending their own.
    let loading = this.loading.get(organizationId);
    if (!loading) {
      loading = this.load(organizationId, now).finally(() => this.loading.delete(organizationId));
      this.loading.set(organizationId, loading);
    }
    return loading;
  }

  private async load(organizationId: string, now: number): Promise<DlpPolicy> {
    const changes = this.changes;
    const record = await this.orm.em.fork().findOne(DlpPolicyRecord, { organizationId });
    const policy = merge(record?.actions ?? {});
    // A policy changed on this instance while reading may have been read before the change.
    if (changes === this.changes) this.cache.set(organizationId, { policy, expiresAt: now + CACHE_TTL_MS });
    return policy;
  }

  async view(organizationId: string): Promise<DlpPolicyView> {
    const record = await this.orm.em.fork().findOne(DlpPolicyRecord, { organizationId });
    return { detectors: merge(record?.actions ?? {}), updatedAt: record?.updatedAt.toISOString() ?? null };
  }

  /**
   * Changes the given detectors' actions; the others keep theirs. One upsert that merges in the
   * database, so concurrent changes (the first ones of an organization included) neither collide
   * on the primary key nor lose each other's detectors.
   */
  async update(organizationId: string, userId: string, changes: Partial<DlpPolicy>): Promise<DlpPolicyView> {
    await this.orm.em.fork().execute(
      `insert into "dlp_policies" ("organization_id", "actions", "updated_by", "updated_at") values (?, ?::jsonb, ?, ?)
       on conflict ("organization_id") do update set
         "actions" = "dlp_policies"."actions" || excluded."actions",
         "updated_by" = excluded."updated_by",
         "updated_at" = excluded."updated_at"`,
      [organizationId, JSON.stringify(changes), userId, this.clock.now()],
    );
    this.changes++;
    this.cache.delete(organizationId);
    this.loading.delete(organizationId);
    return this.view(organizationId);
  }
}

function merge(stored: Record<string, string>): DlpPolicy {
  const policy = { ...DEFAULT_DLP_POLICY };
  for (const type of DETECTOR_TYPES) {
    const action = stored[type];
    if ((DLP_ACTIONS as readonly string[]).includes(action ?? '')) policy[type] = action as DlpAction;
  }
  return policy;
}
