// Identity records: organizations, their users and API keys. Secrets are stored only as hashes.
import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];
export const USER_STATUSES = ['active', 'invited', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export class Organization {
  [OptionalProps]?: 'id' | 'createdAt' | 'updatedAt';
  id: string = randomUUID();
  name!: string;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export class User {
  [OptionalProps]?: 'id' | 'name' | 'role' | 'status' | 'passwordHash' | 'lastLoginAt' | 'createdAt' | 'updatedAt';
  id: string = randomUUID();
  organization!: Organization;
  email!: string;
  name: string = '';
  role: Role = 'member';
  status: UserStatus = 'active';
  passwordHash: string | null = null;
  lastLoginAt: Date | null = null;
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export class ApiKey {
  [OptionalProps]?: 'id' | 'createdAt' | 'lastUsedAt' | 'revokedAt' | 'models' | 'monthlyBudget' | 'rateLimitPerMinute' | 'mcpTools';
  id: string = randomUUID();
  organization!: Organization;
  user!: User;
  name!: string;
  /** Model and tier ids this key may use; null = every one. */
  models: string[] | null = null;
  /** USD per calendar month (UTC) for this key alone; null = only the organization's cap. */
  monthlyBudget: number | null = null;
  /** Requests per minute for this key; null = the service default. */
  rateLimitPerMinute: number | null = null;
  /** Tools this key reaches through /v1/mcp (exact names or `<toolId>__*`); null = every tool of its user. */
  mcpTools: string[] | null = null;
  /** SHA-256 hex of the whole key; the only form of the key that is stored. */
  keyHash!: string;
  /** The first characters of the key, shown so a user can tell keys apart. */
  prefix!: string;
  createdAt: Date = new Date();
  lastUsedAt: Date | null = null;
  revokedAt: Date | null = null;
}

export const OrganizationSchema = new EntitySchema<Organization>({
  class: Organization,
  tableName: 'organizations',
  properties: {
    id: { type: 'uuid', primary: true },
    name: { type: 'string', length: 200 },
    createdAt: { type: 'datetime', length: 3 },
    updatedAt: { type: 'datetime', length: 3, onUpdate: () => new Date() },
  },
});

export const UserSchema = new EntitySchema<User>({
  class: User,
  tableName: 'users',
  uniques: [{ name: 'users_organization_email_unique', properties: ['organization', 'email'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organization: { kind: 'm:1', entity: () => Organization, deleteRule: 'cascade' },
    // Unique per organization (one person may have an account in several; see sign-in.service.ts).
    email: { type: 'string', length: 320 },
    name: { type: 'string', length: 200 },
    role: { type: 'string', length: 16 },
    status: { type: 'string', length: 16 },
    passwordHash: { type: 'text', nullable: true, hidden: true, lazy: true },
    lastLoginAt: { type: 'datetime', length: 3, nullable: true },
    createdAt: { type: 'datetime', length: 3 },
    updatedAt: { type: 'datetime', length: 3, onUpdate: () => new Date() },
  },
});

export const ApiKeySchema = new EntitySchema<ApiKey>({
  class: ApiKey,
  tableName: 'api_keys',
  properties: {
    id: { type: 'uuid', primary: true },
    organization: { kind: 'm:1', entity: () => Organization, deleteRule: 'cascade' },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade' },
    name: { type: 'string', length: 200 },
    keyHash: { type: 'string', length: 64, unique: true, hidden: true },
    prefix: { type: 'string', length: 20 },
    models: { type: 'json', nullable: true },
    monthlyBudget: { type: 'double', nullable: true },
    rateLimitPerMinute: { type: 'integer', nullable: true },
    mcpTools: { type: 'json', nullable: true },
    createdAt: { type: 'datetime', length: 3 },
    lastUsedAt: { type: 'datetime', length: 3, nullable: true },
    revokedAt: { type: 'datetime', length: 3, nullable: true },
  },
});

/** A browser session behind the `svc_session` cookie. Only the SHA-256 of the token is stored. */
export class Session {
  [OptionalProps]?: 'id' | 'createdAt' | 'method' | 'apiKey';
  id: string = randomUUID();
  organization!: Organization;
  user!: User;
  tokenHash!: string;
  /** How the user signed in: password, oidc, invitation or api_key. */
  method: string = 'password';
  /** The API key exchanged for this session (method api_key): the session ends when it is revoked. */
  apiKey: ApiKey | null = null;
  createdAt: Date = new Date();
  /** Sliding end: moved forward (up to absoluteExpiresAt) as the session is used. */
  expiresAt!: Date;
  /** Hard end, fixed at sign-in, however active the session is. */
  absoluteExpiresAt!: Date;
  lastSeenAt!: Date;
}

/** A one-time invitation link for an `invited` user. Only the SHA-256 of the token is stored. */
export class Invitation {
  [OptionalProps]?: 'id' | 'createdAt' | 'acceptedAt' | 'invitedBy';
  id: string = randomUUID();
  organization!: Organization;
  user!: User;
  tokenHash!: string;
  invitedBy: string | null = null;
  expiresAt!: Date;
  acceptedAt: Date | null = null;
  createdAt: Date = new Date();
}

export const SessionSchema = new EntitySchema<Session>({
  class: Session,
  tableName: 'sessions',
  properties: {
    id: { type: 'uuid', primary: true },
    organization: { kind: 'm:1', entity: () => Organization, deleteRule: 'cascade' },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade' },
    tokenHash: { type: 'string', length: 64, unique: true, hidden: true },
    method: { type: 'string', length: 16 },
    apiKey: { kind: 'm:1', entity: () => ApiKey, nullable: true, deleteRule: 'cascade' },
    createdAt: { type: 'datetime', length: 3 },
    expiresAt: { type: 'datetime', length: 3 },
    absoluteExpiresAt: { type: 'datetime', length: 3 },
    lastSeenAt: { type: 'datetime', length: 3 },
  },
});

export const InvitationSchema = new EntitySchema<Invitation>({
  class: Invitation,
  tableName: 'invitations',
  properties: {
    id: { type: 'uuid', primary: true },
    organization: { kind: 'm:1', entity: () => Organization, deleteRule: 'cascade' },
    user: { kind: 'm:1', entity: () => User, deleteRule: 'cascade' },
    tokenHash: { type: 'string', length: 64, unique: true, hidden: true },
    invitedBy: { type: 'uuid', nullable: true },
    expiresAt: { type: 'datetime', length: 3 },
    acceptedAt: { type: 'datetime', length: 3, nullable: true },
    createdAt: { type: 'datetime', length: 3 },
  },
});
