// Scans text with the detectors and applies a policy: findings (type, position) per text, masks
// for the `mask` action. Pure: the run activities call it directly for their own text.
import { DETECTORS, type DetectorType } from './detectors.js';
import type { DlpAction, DlpPolicy } from './policy.js';

export interface DlpFinding {
  type: DetectorType;
  start: number;
  end: number;
}

/** Finds every validated match of the detectors in `types` (all by default); overlaps go to the earlier detector. */
export function scanText(text: string, types?: ReadonlySet<DetectorType>): DlpFinding[] {
  const findings: DlpFinding[] = [];
  for (const detector of DETECTORS) {
    if (types && !types.has(detector.type)) continue;
    detector.pattern.lastIndex = 0;
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

export function maskText(text: string, findings: DlpFinding[]): string {
  let out = '';
  let at = 0;
  for (const finding of findings) {
    out += `${text.slice(at, finding.start)}[REDACTED:${finding.type}]`;
    at = finding.end;
  }
  return out + text.slice(at);
}

export interface DlpTextResult {
  /** The text to send on: masked where the policy says mask. */
  text: string;
  counts: Partial<Record<DetectorType, number>>;
  /** Types whose action is block, found in the text. */
  blocked: DetectorType[];
}

/** Scans one text under a policy: counts every finding, masks the `mask` types, lists the `block` types. */
export function applyPolicy(text: string, policy: DlpPolicy): DlpTextResult {
  const active = new Set(Object.entries(policy).filter(([, action]) => action !== 'off').map(([type]) => type as DetectorType));
  const findings = active.size === 0 ? [] : scanText(text, active);
  const counts: Partial<Record<DetectorType, number>> = {};
  const blocked = new Set<DetectorType>();
  for (const finding of findings) {
    counts[finding.type] = (counts[finding.type] ?? 0) + 1;
    if (actionOf(policy, finding.type) === 'block') blocked.add(finding.type);
  }
  const toMask = findings.filter((f) => actionOf(policy, f.type) === 'mask');
  return { text: toMask.length > 0 ? maskText(text, toMask) : text, counts, blocked: [...blocked] };
}

function actionOf(policy: DlpPolicy, type: DetectorType): DlpAction {
  return policy[type];
}
