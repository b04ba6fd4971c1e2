// Concurrent changes of one organization's DLP policy, the very first ones included: every
// request answers 200 and no detector's change is lost (found as a 500 by test/api/fuzz.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { createTestOrganization } from '../helpers/orgs.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ worker: false });
});

afterAll(async () => {
  await stack?.stop();
});

describe('PUT /dlp/policy under concurrency', () => {
  it('applies simultaneous first changes of different detectors, all of them', async () => {
    const org = await createTestOrganization(stack.runtime.orm);
    const changes = [{ email: 'mask' }, { phone: 'off' }, { iban: 'log' }, { jwt: 'mask' }, { us_ssn: 'log' }, { credit_card: 'mask' }];
    const answers = await Promise.all(
      changes.map((detectors) => call<any>(stack.baseUrl, 'PUT', '/dlp/policy', { key: org.owner.key, body: { detectors } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(changes.map(() => 200));
    const policy = await call<any>(stack.baseUrl, 'GET', '/dlp/policy', { key: org.admin.key });
    expect(policy.body.detectors).toMatchObject(Object.assign({}, ...changes));
    expect(policy.body.detectors.private_key).toBe('block');
    expect(policy.body.updatedAt).toEqual(expect.any(String));
  });
});
