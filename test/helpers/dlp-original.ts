// The DLP engine as it was before the linear-time rewrite: every detector a global backtracking
// regex over the whole text (quadratic on adversarial input). The reference for what the new
// engine must find (src/gateway/dlp/dlp-linear.test.ts) and the baseline of bench/dlp.
import type { DetectorType } from '../../src/gateway/dlp/detectors.js';
import type { DlpFinding } from '../../src/gateway/dlp/scanner.js';
import { isCardNumber, isIban, isJwt, isPhoneNumber, isSsn } from '../../src/gateway/dlp/validators.js';

export const ORIGINAL_DETECTORS: ReadonlyArray<{ type: DetectorType; pattern: RegExp; validate?: (match: string) => boolean }> = [
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
    pattern: /(?<![\w+]|\d[ .-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])\d{3,4}[ .-]\d{3,4}(?![\w-]|[ .]\d)|(?<![\w+])\+\d{10,15}\b/g,
    validate: isPhoneNumber,
  },
];

/** The old scanText: each detector's matches in priority order, overlaps to the earlier detector. */
export function originalScan(text: string, types?: ReadonlySet<DetectorType>): DlpFinding[] {
  const findings: DlpFinding[] = [];
  for (const detector of ORIGINAL_DETECTORS) {
    if (types && !types.has(detector.type)) continue;
    for (const match of text.matchAll(detector.pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (detector.validate && !detector.validate(match[0])) continue;
      if (findings.some((f) => start < f.end && f.start < end)) continue;
      findings.push({ type: detector.type, start, end });
    }
  }
  return findings.sort((a, b) => a.start - b.start);
}
