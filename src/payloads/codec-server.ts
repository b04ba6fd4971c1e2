// The codec server behind POST /v1/codec/encode and /v1/codec/decode (Temporal's remote codec
// protocol, which the Web UI and the CLI speak): payloads as protobuf JSON, bytes in base64. A
// caller decodes only its own organization's payloads, and encodes only for its organization;
// another namespace's payloads come back unchanged (this service holds no keys for them).
import { z } from 'zod';
import type { Payload } from '@temporalio/common';
import { parseInput } from '../identity/identity.schemas.js';
import type { EncryptionCodec } from './codec.js';

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');
const jsonPayload = z.object({
  metadata: z.record(z.string(), base64).optional(),
  data: base64.optional(),
});
/** Request and response body; the UI sends one event's payloads at a time. */
export const codecPayloadsBody = z.object({ payloads: z.array(jsonPayload).max(10_000) });
export type CodecPayloads = z.infer<typeof codecPayloadsBody>;

export interface CodecRequest {
  direction: 'encode' | 'decode';
  organizationId: string;
  /** X-Namespace; absent = this service's namespace. */
  namespace: string | undefined;
}

export function runCodec(codec: EncryptionCodec, serviceNamespace: string, request: CodecRequest, body: unknown): CodecPayloads {
  const parsed = parseInput(codecPayloadsBody, body);
  if (request.namespace !== undefined && request.namespace !== serviceNamespace) return parsed;
  const payloads = parsed.payloads.map(fromJson);
  const converted = request.direction === 'encode'
    ? codec.encodeForOrganization(payloads, request.organizationId)
    : codec.decodeForOrganization(payloads, request.organizationId);
  return { payloads: converted.map(toJson) };
}

function fromJson(payload: z.infer<typeof jsonPayload>): Payload {
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64')])),
    data: Buffer.from(payload.data ?? '', 'base64'),
  };
}

function toJson(payload: Payload): z.infer<typeof jsonPayload> {
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
    data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
  };
}
