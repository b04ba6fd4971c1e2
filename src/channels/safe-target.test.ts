import { describe, expect, it } from 'vitest';
import { assertPublicUrl, isPrivateAddress, publicLookup, webhookDispatcher } from './safe-target.js';
import { PermanentDeliveryError } from './types.js';
import { postWebhook, signBody, webhookBody } from './webhook.js';

const message = {
  deliveryId: 'run-1:0',
  automationId: 'a-1',
  automationName: 'Digest',
  runId: 'run-1',
  trigger: 'manual',
  startedAt: '2026-05-01T10:00:00.000Z',
  output: 'hello',
};

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip'])(
    'treats %s as private',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );
  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('treats %s as public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('webhook targets', () => {
  it.each(['http://127.0.0.1:9/x', 'http://[::1]:9/x', 'http://localhost:9/x', 'http://api.localhost/x', 'http://169.254.169.254/latest/meta-data'])(
    'refuses %s unless private targets are allowed',
    async (url) => {
      expect(() => assertPublicUrl(new URL(url))).toThrow(PermanentDeliveryError);
      await expect(
        postWebhook({ dispatcher: webhookDispatcher(false), allowPrivateTargets: false, now: new Date() }, url, 'secret', message),
      ).rejects.toBeInstanceOf(PermanentDeliveryError);
    },
  );

  it('refuses a name that resolves to a private address at connect time', async () => {
    const error = await new Promise<Error | null>((resolve) => publicLookup('localhost', {}, (err) => resolve(err)));
    expect(error).toBeInstanceOf(PermanentDeliveryError);
  });
});

describe('webhook signature', () => {
  it('signs the exact body bytes with HMAC-SHA256 (vector computed with openssl dgst -sha256 -hmac)', () => {
    const body = webhookBody(message);
    expect(body).toBe(
      '{"id":"run-1:0","event":"automation.run.completed","data":{"automationId":"a-1","automationName":"Digest",' +
        '"runId":"run-1","trigger":"manual","startedAt":"2026-05-01T10:00:00.000Z","output":"hello"}}',
    );
    expect(signBody('secret', body)).toBe('sha256=19768a651f5862a138a226be69a79f4bdfb2a55bbe0b58c72c77ee0a346ad999');
    expect(signBody('other', body)).not.toBe(signBody('secret', body));
  });
});
