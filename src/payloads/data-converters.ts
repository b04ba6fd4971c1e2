// The data converters of the client and the worker, built around one EncryptionCodec. The
// worker's payload converter runs in two places: inside the sandbox (bundled from
// WORKFLOW_PAYLOAD_CONVERTER_PATH, labels payloads with the workflow's organization) and for
// activities outside it (the SDK's default converter; the codec takes the organization from the
// running activity). Clients are made per organization, so what the API sends is labelled too.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefaultFailureConverter, type DataConverter, type LoadedDataConverter } from '@temporalio/common';
import type { Config } from '../config.js';
import { currentActivityOrganization } from './activity-scope.js';
import { EncryptionCodec } from './codec.js';
import { OrganizationPayloadConverter } from './converter.js';
import { createPayloadKeyRing } from './keys.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** A sibling module: the .ts source in development and tests, the compiled .js in the image. */
const sibling = (name: string, [source, built] = ['.ts', '.js']) => {
  const ts = path.join(here, `${name}${source}`);
  return fs.existsSync(ts) ? ts : path.join(here, `${name}${built}`);
};

export const WORKFLOW_PAYLOAD_CONVERTER_PATH = sibling('workflow-converter');
export const WORKFLOW_INTERCEPTORS_PATH = sibling('workflow-interceptors');
/** CommonJS, so the worker's own require() loads it under tsx, vitest and plain node alike. */
export const FAILURE_CONVERTER_PATH = sibling('failure-converter', ['.cts', '.cjs']);

/** SECRET_KEY_PREVIOUS: comma-separated base64 keys (validated by config.ts). */
export function previousSecretKeys(config: Pick<Config, 'SECRET_KEY_PREVIOUS'>): Buffer[] {
  return (config.SECRET_KEY_PREVIOUS ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean)
    .map((value) => Buffer.from(value, 'base64'));
}

export function createPayloadCodec(secretKey: Buffer, config: Pick<Config, 'SECRET_KEY_PREVIOUS'>): EncryptionCodec {
  return new EncryptionCodec({
    keys: createPayloadKeyRing(secretKey, previousSecretKeys(config)),
    fallbackOrganization: currentActivityOrganization,
  });
}

/** A client's converter: what it sends belongs to `organizationId` (none: the service key). */
export function clientDataConverter(codec: EncryptionCodec, organizationId?: string): LoadedDataConverter {
  return {
    payloadConverter: new OrganizationPayloadConverter(() => organizationId),
    failureConverter: new DefaultFailureConverter({ encodeCommonAttributes: true }),
    payloadCodecs: [codec],
  };
}

export function workerDataConverter(codec: EncryptionCodec): DataConverter {
  return { payloadCodecs: [codec], failureConverterPath: FAILURE_CONVERTER_PATH };
}
