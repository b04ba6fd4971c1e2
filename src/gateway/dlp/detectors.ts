// The DLP detectors: a pattern per data type plus, where the type has one, a validation that
// rejects look-alikes (Luhn for cards, mod 97 for IBANs, the SSA's rules for SSNs). Listed by
// priority: when matches overlap, the earlier detector wins (a card number is not also a phone).
// Every detector runs in time linear in its input: the regular expressions are checked by a ReDoS
// checker in dlp-linear.test.ts, and the shapes no backtracking regex scans linearly (e-mail, JWT,
// PEM blocks) are hand-written scanners (custom-scanners.ts) that skip past what they have read.
import { findEmail, findJwt, findPrivateKey, type CustomFind } from './custom-scanners.js';
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

interface DetectorBase {
  type: DetectorType;
  validate?: (match: string) => boolean;
}

export interface RegexDetector extends DetectorBase {
  kind: 'regex';
  /** Global regex; each match is a candidate. */
  pattern: RegExp;
  /** The same pattern, sticky: re-matches a candidate the scan window cut short on the whole text. */
  sticky: RegExp;
  /**
   * Literals of which every match contains one: a slice holding none of them is skipped. Each
   * starts with an uncommon character (`k-` of `sk-`), which the search looks for first.
   */
  anchors?: readonly string[];
}

export interface CustomDetector extends DetectorBase {
  kind: 'custom';
  find: CustomFind;
}

export type Detector = RegexDetector | CustomDetector;

function regex(type: DetectorType, pattern: RegExp, options: { validate?: (match: string) => boolean; anchors?: readonly string[] } = {}): RegexDetector {
  return { kind: 'regex', type, pattern, sticky: new RegExp(pattern.source, 'y'), ...options };
}

export const DETECTORS: readonly Detector[] = [
  { kind: 'custom', type: 'private_key', find: findPrivateKey },
  regex('aws_access_key', /\b(?:AKIA|ASIA|AIDA|AROA)[0-9A-Z]{16}\b/g, { anchors: ['AKIA', 'ASIA', 'AIDA', 'AROA'] }),
  regex('google_api_key', /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, { anchors: ['AIza'] }),
  regex('github_token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g, { anchors: ['_'] }),
  regex('slack_token', /\bxox[abposr]-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/g, { anchors: ['xox', 'ks.slack.com/'] }),
  regex('anthropic_api_key', /\bsk-ant-[a-z]{3,8}\d{2}-[A-Za-z0-9_-]{20,}/g, { anchors: ['k-ant-'] }),
  regex('openai_api_key', /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g, { anchors: ['k-'] }),
  regex('service_api_key', /\bsvc_live_[A-Za-z0-9]{32,}\b/g, { anchors: ['_live_'] }),
  { kind: 'custom', type: 'jwt', find: findJwt, validate: isJwt },
  regex('credit_card', /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g, { validate: isCardNumber }),
  regex('iban', /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g, { validate: isIban }),
  regex('us_ssn', /(?<![\d-])\d{3}[- ]\d{2}[- ]\d{4}(?![\d-])/g, { validate: isSsn }),
  { kind: 'custom', type: 'email', find: findEmail },
  regex(
    'phone',
    // Not part of a longer digit group run (a card number with spaces is not a phone number).
    /(?<![\w+]|\d[ .-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])\d{3,4}[ .-]\d{3,4}(?![\w-]|[ .]\d)|(?<![\w+])\+\d{10,15}\b/g,
    { validate: isPhoneNumber },
  ),
];

export const SECRET_TYPES: readonly DetectorType[] = [
  'private_key', 'aws_access_key', 'google_api_key', 'github_token', 'slack_token',
  'anthropic_api_key', 'openai_api_key', 'service_api_key', 'jwt',
];
