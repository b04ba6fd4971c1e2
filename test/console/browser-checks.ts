// What the console's browser tests share: where Chromium is (skipped with the reason when it is
// not installed), the page problems a test fails on (script
// errors, CSP violations, failed loads) and axe-core's serious violations.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** True (and says why, as `test`) when Chromium is not installed: the browser tests are skipped. */
export function chromiumMissing(test: string): boolean {
  const missing = !fs.existsSync(CHROMIUM);
  if (missing) console.warn(`[${test}] skipped: ${CHROMIUM} is not installed (scripts/ensure-chromium.sh installs it as root with apt-get)`);
  return missing;
}

/** Script errors, CSP violations and failed loads of a page; the one expected 401 (who am I, before sign-in) is not one. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const expectedProbe = message.text().includes('401') && message.location().url.endsWith('/v1/users/me');
    if (!expectedProbe) problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  return problems;
}

/** axe-core's serious and critical violations on the page. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, not as an inline <script>: the console's CSP stays on.
  await page.evaluate(fs.readFileSync(path.join(root, 'console', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  // Browser code as strings: the root's type-check has no DOM library.
  const result = (await page.evaluate('axe.run(document)')) as { violations: Array<{ id: string; impact: string; nodes: unknown[] }> };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
}
