// A user's connection to a catalog connector. The variables the connector needs (tokens,
// database URLs) are stored only as one AES-256-GCM ciphertext of their JSON; their names are
// kept in clear so the API can say which are set without decrypting anything.
import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import type { ToolApprovals } from '../approval-policy/policy.js';

export const CONNECTION_STATUSES = ['connected', 'error'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export class ToolConnection {
  [OptionalProps]?: 'id' | 'status' | 'connectedAt' | 'lastTestedAt' | 'testResult' | 'toolNames' | 'toolApprovals' | 'createdAt' | 'updatedAt';
  id: string = randomUUID();
  organizationId!: string;
  userId!: string;
  /** The catalog connector id. */
  toolId!: string;
  name!: string;
  /** SecretBox ciphertext of a JSON object of the connection's variables. Never leaves the service. */
  envCiphertext!: string;
  envNames!: string[];
  status: ConnectionStatus = 'connected';
  connectedAt: Date | null = new Date();
  lastTestedAt: Date | null = null;
  testResult: string | null = null;
  /** Tool names the last successful test listed. */
  toolNames: string[] | null = null;
  /** The default approval policy of this connection's tools (an automation's or assistant's own entries win). */
  toolApprovals: ToolApprovals = {};
  createdAt: Date = new Date();
  updatedAt: Date = new Date();
}

export const ToolConnectionSchema = new EntitySchema<ToolConnection>({
  class: ToolConnection,
  tableName: 'tool_connections',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    userId: { type: 'uuid' },
    toolId: { type: 'string', length: 100 },
    name: { type: 'string', length: 200 },
    envCiphertext: { type: 'text', hidden: true },
    envNames: { type: 'json' },
    status: { type: 'string', length: 16 },
    connectedAt: { type: 'datetime', length: 3, nullable: true },
    lastTestedAt: { type: 'datetime', length: 3, nullable: true },
    testResult: { type: 'text', nullable: true },
    toolNames: { type: 'json', nullable: true },
    toolApprovals: { type: 'json' },
    createdAt: { type: 'datetime', length: 3 },
    updatedAt: { type: 'datetime', length: 3, onUpdate: () => new Date() },
  },
});
