// The DLP detectors: a pattern per data type plus, where the type has one, a validation that
// rejects look-alikes (Luhn for cards, mod 97 for IBANs, the SSA's rules for SSNs). Listed by
// priority: when matches overlap, the earlier detector wins (a card number is not also a phone).
import { isCardNumber, isIban, isJwt, isPhoneNumber, isSsn } from './validators.js';

export const DETECTOR_TYPES = [
  'private_key',
  'aws_access_key',
  'google_api_key',
  'github_token',
  'slack_token',
  'anthropic_api_key',
  'openai_api_key',
  'service_api_key',
  'jwt',
  'credit_card',
  'iban',
  'us_ssn',
  'email',
  'phone',
] as const;
export type DetectorType = (typeof DETECTOR_TYPES)[number];

export interface Detector {
  type: DetectorType;
  /** Global regex; each match is a candidate. */
  pattern: RegExp;
  validate?: (match: string) => boolean;
}

export const DETECTORS: readonly Detector[] = [
  { type: 'private_key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----)?/g },
  { type: 'aws_access_key', pattern: /\b(?:AKIA|ASIA|AIDA|AROA)[0-9A-Z]{16}\b/g },
  { type: 'google_api_key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { type: 'github_token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { type: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/g },
  { type: 'anthropic_api_key', pattern: /\bsk-ant-[a-z]{3,8}\d{2}-[A-Za-z0-9_-]{20,}/g },
  { type: 'openai_api_key', pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g },
  { type: 'service_api_key', pattern: /\bsvc_live_[A-Za-z0-9]{32,}\b/g },
  { type: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g, validate: isJwt },
  { type: 'credit_card', pattern: /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g, validate: isCardNumber },
  { type: 'iban', pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g, validate: isIban },
  { type: 'us_ssn', pattern: /(?<![\d-])\d{3}[- ]\d{2}[- ]\d{4}(?![\d-])/g, validate: isSsn },
  { type: 'email', pattern: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g },
  {
    type: 'phone',
    // Not part of a longer digit group run (a card number with spaces is not a phone number).
    pattern: /(?<![\w+]|\d[ .-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])\d{3,4}[ .-]\d{3,4}(?![\w-]|[ .]\d)|(?<![\w+])\+\d{10,15}\b/g,
    validate: isPhoneNumber,
  },
];

export const SECRET_TYPES: readonly DetectorType[] = [
  'private_key', 'aws_access_key', 'google_api_key', 'github_token', 'slack_token',
  'anthropic_api_key', 'openai_api_key', 'service_api_key', 'jwt',
];
