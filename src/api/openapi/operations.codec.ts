// Registry entries of the codec server (src/api/routes/codec.ts): Temporal's remote codec
// protocol, for the Web UI and the Temporal CLI.
import { z } from 'zod';
import { codecPayloadsBody } from '../../payloads/codec-server.js';
import type { Operation } from './registry.js';

const example = { payloads: [{ metadata: { encoding: 'anNvbi9wbGFpbg==' }, data: 'eyJoZWxsbyI6IndvcmxkIn0=' }] };
const namespaceHeader = {
  'X-Namespace': {
    schema: z.string(),
    description: 'Temporal namespace of the payloads (the Web UI sends it); another namespace than TEMPORAL_NAMESPACE gets its payloads back unchanged',
  },
};

function codecOperation(direction: 'encode' | 'decode'): Operation {
  return {
    method: 'post',
    path: `/v1/codec/${direction}`,
    operationId: direction === 'encode' ? 'encodePayloads' : 'decodePayloads',
    tag: 'Operations',
    summary: direction === 'encode' ? "Encrypt payloads for the caller's organization (codec server)" : "Decrypt the caller's organization's payloads (codec server)",
    description:
      direction === 'encode'
        ? 'Temporal remote codec protocol. Every unencrypted payload is encrypted under the caller organization\'s key.'
        : 'Temporal remote codec protocol. Payloads of the caller\'s organization are decrypted; those of another organization, of the service itself, or not encrypted come back unchanged. CORS: TEMPORAL_UI_ORIGIN with credentials.',
    auth: 'caller',
    role: 'admin',
    headers: namespaceHeader,
    body: { id: 'CodecPayloads', schema: codecPayloadsBody, required: true, example },
    responses: { 200: { description: 'The payloads, in the order given', schema: codecPayloadsBody } },
    errors: ['bad_request'],
  };
}

export const codecOperations: Operation[] = [codecOperation('encode'), codecOperation('decode')];
