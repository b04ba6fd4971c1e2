// The payload converter of every process: JSON (the SDK's default converter), plus the metadata
// the codec needs, written where the organization is known: `organization-id` (whose key the
// codec encrypts with) and the plaintext mark of static summaries. Runs inside the workflow
// sandbox as well (workflow-converter.ts), so it imports nothing from Node.
import { defaultPayloadConverter, type Payload, type PayloadConverter, type SerializationContext } from '@temporalio/common';
import { METADATA, withMetadata } from './metadata.js';
import { takePlaintextSummary } from './plaintext-summaries.js';

export class OrganizationPayloadConverter implements PayloadConverter {
  constructor(
    /** The organization whose data is being converted now, if any. */
    private readonly organizationOf: () => string | undefined,
    private readonly inner: PayloadConverter = defaultPayloadConverter,
  ) {}

  toPayload<T>(value: T, context?: SerializationContext): Payload {
    const payload = this.inner.toPayload(value, context);
    if (typeof value === 'string' && takePlaintextSummary(value)) return withMetadata(payload, METADATA.plaintext, 'summary');
    const organizationId = this.organizationOf();
    return organizationId ? withMetadata(payload, METADATA.organizationId, organizationId) : payload;
  }

  fromPayload<T>(payload: Payload, context?: SerializationContext): T {
    return this.inner.fromPayload<T>(payload, context);
  }
}
