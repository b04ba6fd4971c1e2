// Scans text with the detectors and applies a policy: findings (type, position) per text, masks
// for the `mask` action. Pure: the run activities call it directly for their own text.
// Text is scanned in slices of SLICE characters, every detector over one slice before the next.
// A regex detector runs on the slice plus CONTEXT characters before it (for its lookbehinds) and
// OVERLAP after (so a match starting in the slice is seen whole; one reaching the window's edge
// is matched again on the whole text), keeping only matches that start in the slice. Each
// detector resumes where its previous match ended, as a global regex does, so a match across a
// slice boundary is found once. The async variants yield to the event loop between steps (one
// detector over one slice) once they have run for YIELD_AFTER_MS.
import type { ScanMemo } from './custom-scanners.js';
import { DETECTORS, type Detector, type DetectorType, type RegexDetector } from './detectors.js';
import type { DlpAction, DlpPolicy } from './policy.js';

export interface DlpFinding {
  type: DetectorType;
  start: number;
  end: number;
}

/** Characters per slice: the slowest detector's worst case over one slice stays around a millisecond. */
export const SLICE = 64 * 1024;
/** How far back the patterns' lookbehinds (and `\b`) read. */
const CONTEXT = 16;
/** Longer than any regex detector's shortest complete match plus its lookahead (github: 4 + 255 + 1). */
const OVERLAP = 1024;
/** How far the patterns' lookaheads read past a match. */
const LOOKAHEAD = 8;
/** An async scan yields to the event loop once it has run this long. */
const YIELD_AFTER_MS = 10;

interface Cursor {
  detector: Detector;
  /** Where this detector's search resumes (the end of its last match, or of a run it ruled out). */
  at: number;
  memo: ScanMemo;
  found: DlpFinding[];
}

/** Finds every validated match of the detectors in `types` (all by default); overlaps go to the earlier detector. */
export function scanText(text: string, types?: ReadonlySet<DetectorType>): DlpFinding[] {
  const scan = scanSteps(text, types);
  for (let step = scan.next(); ; step = scan.next()) if (step.done) return step.value;
}

/** scanText in slices, yielding to the event loop between them so no scan holds it for long. */
export async function scanTextAsync(text: string, types?: ReadonlySet<DetectorType>): Promise<DlpFinding[]> {
  return runSteps(scanSteps(text, types));
}

/** A scan as steps: it may pause for the event loop at each `yield` (between slices of a long text). */
export type ScanSteps<T> = Generator<void, T>;

/**
 * Runs a scan's steps at once while it stays under YIELD_AFTER_MS (texts shorter than a slice
 * never pause: the value is returned synchronously); past that it goes on asynchronously,
 * yielding to the event loop between steps as scanTextAsync does.
 */
export function runSteps<T>(steps: ScanSteps<T>): T | Promise<T> {
  const since = performance.now();
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    if (performance.now() - since >= YIELD_AFTER_MS) return runStepsYielding(steps);
  }
}

async function runStepsYielding<T>(steps: ScanSteps<T>): Promise<T> {
  let since = -Infinity;
  for (let step: IteratorResult<void, T> | undefined; ; ) {
    if (performance.now() - since >= YIELD_AFTER_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    }
    step = steps.next();
    if (step.done) return step.value;
  }
}

function* scanSteps(text: string, types?: ReadonlySet<DetectorType>): Generator<void, DlpFinding[]> {
  const cursors: Cursor[] = DETECTORS.filter((d) => !types || types.has(d.type)).map((detector) => ({ detector, at: 0, memo: {}, found: [] }));
  for (let from = 0; from < text.length; from += SLICE) {
    const to = Math.min(text.length, from + SLICE);
    for (const cursor of cursors) {
      if (cursor.detector.kind === 'regex') scanRegexSlice(cursor, cursor.detector, text, from, to);
      else scanCustomSlice(cursor, text, to);
      // A step is one detector over one slice: the async scan may yield after any of them.
      if (to < text.length) yield;
    }
  }
  return resolveOverlaps(cursors.map((c) => c.found));
}

function scanCustomSlice(cursor: Cursor, text: string, to: number): void {
  const detector = cursor.detector;
  if (detector.kind !== 'custom') return;
  while (cursor.at < to) {
    const hit = detector.find(text, cursor.at, to, cursor.memo);
    if (hit.start === undefined) {
      cursor.at = Math.max(cursor.at, hit.next);
      return;
    }
    cursor.at = Math.max(hit.next, hit.start + 1);
    if (!detector.validate || detector.validate(text.slice(hit.start, hit.end))) cursor.found.push({ type: detector.type, start: hit.start, end: hit.end });
  }
}

function scanRegexSlice(cursor: Cursor, detector: RegexDetector, text: string, from: number, to: number): void {
  const start = Math.max(from, cursor.at);
  if (start >= to) return;
  const windowStart = Math.max(0, start - CONTEXT);
  const windowEnd = Math.min(text.length, to + OVERLAP);
  const window = windowStart === 0 && windowEnd === text.length ? text : text.slice(windowStart, windowEnd);
  if (detector.anchors && !detector.anchors.some((anchor) => window.includes(anchor, start - windowStart))) {
    cursor.at = to;
    return;
  }
  const pattern = detector.pattern;
  pattern.lastIndex = start - windowStart;
  for (let match = pattern.exec(window); match !== null; match = pattern.exec(window)) {
    const matchStart = windowStart + match.index;
    if (matchStart >= to) break;
    let value = match[0];
    if (windowEnd < text.length && matchStart + value.length + LOOKAHEAD > windowEnd) {
      // The window may have cut this match short, or let a lookahead pass at its edge.
      detector.sticky.lastIndex = matchStart;
      const whole = detector.sticky.exec(text);
      if (!whole) {
        pattern.lastIndex = match.index + 1;
        continue;
      }
      value = whole[0];
    }
    const matchEnd = matchStart + value.length;
    cursor.at = matchEnd;
    if (!detector.validate || detector.validate(value)) cursor.found.push({ type: detector.type, start: matchStart, end: matchEnd });
    if (matchEnd >= windowEnd) return;
    pattern.lastIndex = matchEnd - windowStart;
  }
  cursor.at = Math.max(cursor.at, to);
}

/**
 * Keeps each finding that overlaps no finding of an earlier detector. Lists arrive in detector
 * priority order, each sorted and without overlaps, so one merge walk per list does it.
 */
function resolveOverlaps(lists: DlpFinding[][]): DlpFinding[] {
  let kept: DlpFinding[] = [];
  for (const list of lists) {
    if (list.length === 0) continue;
    const merged: DlpFinding[] = [];
    let k = 0;
    for (const finding of list) {
      while (k < kept.length && kept[k]!.end <= finding.start) merged.push(kept[k++]!);
      const overlaps = (k < kept.length && kept[k]!.start < finding.end) || (merged.length > 0 && merged[merged.length - 1]!.end > finding.start);
      if (!overlaps) merged.push(finding);
    }
    while (k < kept.length) merged.push(kept[k++]!);
    kept = merged;
  }
  return kept;
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
  const active = activeTypes(policy);
  return verdictOf(text, policy, active.size === 0 ? [] : scanText(text, active));
}

/** applyPolicy, yielding to the event loop during long scans. */
export async function applyPolicyAsync(text: string, policy: DlpPolicy): Promise<DlpTextResult> {
  return runSteps(policySteps(text, policy, activeTypes(policy)));
}

/** applyPolicy as steps (see runSteps), with the policy's active detector types worked out once by the caller. */
export function* policySteps(text: string, policy: DlpPolicy, active: ReadonlySet<DetectorType>): ScanSteps<DlpTextResult> {
  return verdictOf(text, policy, active.size === 0 ? [] : yield* scanSteps(text, active));
}

/** The detector types a policy does not turn off. */
function activeTypes(policy: DlpPolicy): Set<DetectorType> {
  return new Set(Object.entries(policy).filter(([, action]) => action !== 'off').map(([type]) => type as DetectorType));
}

const activeTypesByPolicy = new WeakMap<DlpPolicy, ReadonlySet<DetectorType>>();

/** activeTypes, worked out once per policy object: for policies never changed in place (DlpPolicies' cached ones). */
export function activeTypesOfCached(policy: DlpPolicy): ReadonlySet<DetectorType> {
  let active = activeTypesByPolicy.get(policy);
  if (!active) {
    active = activeTypes(policy);
    activeTypesByPolicy.set(policy, active);
  }
  return active;
}

function verdictOf(text: string, policy: DlpPolicy, findings: DlpFinding[]): DlpTextResult {
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
