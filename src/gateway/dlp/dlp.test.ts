import { describe, expect, it } from 'vitest';
import { DEFAULT_DLP_POLICY, applyPolicy, inspectRequest, scanText, type DetectorType, type DlpPolicies, type DlpPolicy } from './index.js';
import type { ChatMessage } from '../types.js';
import { isIban, isSsn, luhnValid } from './validators.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1234567890', name: 'Jane' })}.${'s'.repeat(43)}`;
const notJwt = `${b64({ typ: 'JWT', kid: 'abcdefgh' })}.${b64({ sub: '1234567890' })}.${'s'.repeat(43)}`;

const cases: Record<DetectorType, { hits: string[]; misses: string[] }> = {
  credit_card: {
    hits: ['4111 1111 1111 1111', '5500-0000-0000-0004', '378282246310005'],
    misses: ['4111 1111 1111 1112', '0000 0000 0000 0000', '1234567890123452', 'order 20240115093000'],
  },
  iban: { hits: ['DE89 3704 0044 0532 0130 00', 'GB82WEST12345698765432'], misses: ['DE89 3704 0044 0532 0130 01', 'XX00 1234 5678 9012 34'] },
  us_ssn: {
    hits: ['536-22-1234', '401 55 9876'],
    misses: ['000-12-3456', '666-12-3456', '912-34-5678', '536-00-1234', '536-22-0000', '078-05-1120', '536-22-12345'],
  },
  email: { hits: ['jane.doe@example.com', 'ops+alerts@mail.example.co.uk'], misses: ['jane@localhost', 'user at example dot com', '@handle'] },
  phone: { hits: ['+1 415-555-0132', '(415) 555-0132', '+442079460958', '020 7946 0958'], misses: ['2024-01-15', 'version 1.2.3', '12-34-56', 'call 555-0132'] },
  aws_access_key: { hits: ['AKIAIOSFODNN7EXAMPLE'], misses: ['AKIAIOSFODNN7', 'akiaiosfodnn7example'] },
  google_api_key: { hits: [`AIza${'A1b2C3d4E5'.repeat(3)}Zz_-x`], misses: ['AIzaShort'] },
  github_token: { hits: [`ghp_${'a1B2c3D4e5'.repeat(4)}`, `github_pat_${'A1b2'.repeat(8)}`], misses: ['ghp_short', 'ghx_' + 'a'.repeat(36)] },
  slack_token: { hits: ['xoxb-1234567890-abcdefghij', 'https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXX'], misses: ['xox-foo', 'xoxb-short'] },
  anthropic_api_key: { hits: [`sk-ant-api03-${'x'.repeat(40)}`], misses: ['sk-ant-short'] },
  openai_api_key: { hits: [`sk-proj-${'Ab1'.repeat(15)}`, `sk-${'a1'.repeat(24)}`], misses: ['sk-short', 'task-list-for-today'] },
  service_api_key: { hits: [`svc_live_${'Ab1'.repeat(12)}`], misses: ['svc_live_short', `svc_test_${'a'.repeat(32)}`] },
  private_key: {
    hits: ['-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----', '-----BEGIN OPENSSH PRIVATE KEY-----'],
    misses: ['-----BEGIN PUBLIC KEY-----\nMIIBIjAN\n-----END PUBLIC KEY-----', 'a private key is secret'],
  },
  jwt: { hits: [jwt], misses: [notJwt, 'eyJhbGciOi.short.token'] },
};

describe('DLP detectors', () => {
  for (const [type, { hits, misses }] of Object.entries(cases)) {
    it.each(hits)(`${type} finds %s`, (value) => {
      const findings = scanText(`before ${value} after`);
      expect(findings.map((f) => f.type)).toEqual([type]);
      expect(`before ${value} after`.slice(findings[0]!.start, findings[0]!.end)).toBe(value);
    });
    it.each(misses)(`${type} ignores %s`, (value) => {
      expect(scanText(`before ${value} after`).map((f) => f.type)).not.toContain(type);
    });
  }

  it('finds nothing in ordinary prose', () => {
    expect(scanText('Please summarize the Q3 report: revenue grew 12% to $4.5M across 3 regions on 2024-10-01.')).toEqual([]);
  });

  it('gives an overlapping match to the earlier detector (a card number is not also a phone)', () => {
    expect(scanText('card 4111 1111 1111 1111').map((f) => f.type)).toEqual(['credit_card']);
  });
});

describe('validators', () => {
  it('checks Luhn, mod 97 and SSN rules', () => {
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
    expect(isIban('FR1420041010050500013M02606')).toBe(true);
    expect(isIban('FR1420041010050500013M02607')).toBe(false);
    expect(isSsn('899-12-3456')).toBe(true);
    expect(isSsn('900-12-3456')).toBe(false);
  });
});

describe('policy actions', () => {
  const text = 'Card 4111 1111 1111 1111, mail jane@example.com';
  const policy = (changes: Partial<DlpPolicy>): DlpPolicy => ({ ...DEFAULT_DLP_POLICY, ...changes });

  it('blocks cards and logs e-mail by default', () => {
    expect(applyPolicy(text, DEFAULT_DLP_POLICY)).toEqual({ text, counts: { credit_card: 1, email: 1 }, blocked: ['credit_card'] });
  });

  it('masks what the policy masks', () => {
    const result = applyPolicy(text, policy({ credit_card: 'mask', email: 'mask' }));
    expect(result).toEqual({ text: 'Card [REDACTED:credit_card], mail [REDACTED:email]', counts: { credit_card: 1, email: 1 }, blocked: [] });
  });

  it('logs without changing the text', () => {
    expect(applyPolicy(text, policy({ credit_card: 'log' }))).toEqual({ text, counts: { credit_card: 1, email: 1 }, blocked: [] });
  });

  it('does not scan for detectors that are off', () => {
    expect(applyPolicy(text, policy({ credit_card: 'off', email: 'off' }))).toEqual({ text, counts: {}, blocked: [] });
  });
});

describe('an earlier answer\'s thinking', () => {
  const policies = (policy: DlpPolicy) => ({ cachedPolicy: () => policy, policyFor: async () => policy }) as unknown as DlpPolicies;
  const turn = (thinking: string, signature = 'sig'): ChatMessage[] => [
    { role: 'user', content: 'q' },
    { role: 'assistant', content: 'a', reasoning: [{ type: 'thinking', thinking, signature }, { type: 'redacted_thinking', data: 'opaque' }] },
  ];

  it('is scanned: a block finding in its text, signature or redacted data blocks the request', async () => {
    const token = `ghp_${'a'.repeat(36)}`;
    for (const messages of [turn(`token ${token}`), turn('fine', token), [{ role: 'assistant' as const, content: 'a', reasoning: [{ type: 'redacted_thinking' as const, data: token }] }]]) {
      const verdict = await inspectRequest(policies(DEFAULT_DLP_POLICY), 'org', { messages });
      expect(verdict.blocked).toEqual(['github_token']);
    }
  });

  it('is never masked (its signature covers it): a mask finding leaves that turn\'s thinking out, the rest of the turn masked as usual', async () => {
    const policy = { ...DEFAULT_DLP_POLICY, email: 'mask' as const };
    const verdict = await inspectRequest(policies(policy), 'org', { messages: turn('mail ann@example.com about it') });
    expect(verdict.blocked).toEqual([]);
    expect(verdict.findings).toEqual({ email: 1 });
    expect(verdict.messages[1]).toEqual({ role: 'assistant', content: 'a' });
    const clean = await inspectRequest(policies(policy), 'org', { messages: turn('nothing to see') });
    expect(clean.messages[1]!.reasoning).toHaveLength(2);
  });
});
