// The API reference page renders in a real browser: headless Chromium (Debian's, installed by
// scripts/ensure-chromium.sh) loads /docs from the running API, Swagger UI fetches
// /v1/openapi.json and lists the endpoints; the page raises no script error and breaks no CSP
// rule, and a screenshot is taken. Skipped, with the reason, where Chromium is not installed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations } from '../../src/api/openapi/document.js';
import { startStack, type Stack } from '../helpers/stack.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumMissing = !fs.existsSync(CHROMIUM);
if (chromiumMissing) {
  console.warn(`[docs-page.test] skipped: ${CHROMIUM} is not installed (scripts/ensure-chromium.sh installs it as root with apt-get)`);
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(file: Buffer): { width: number; height: number } {
  expect(file.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'PNG signature').toBe(true);
  expect(file.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: file.readUInt32BE(16), height: file.readUInt32BE(20) };
}

describe.skipIf(chromiumMissing)(`/docs in headless Chromium (${CHROMIUM})`, () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack({ worker: false });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('renders every endpoint of the document, without script errors, and screenshots', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));

    const response = await page.goto(`${stack.api.url}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    await page.waitForSelector('.opblock', { timeout: 20_000 });

    const rendered = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent?.trim().toLowerCase() ?? '',
        path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? block.querySelector('.opblock-summary-path')?.textContent?.trim() ?? '',
        summary: block.querySelector('.opblock-summary-description')?.textContent?.trim() ?? '',
      })),
    );
    const renderedKeys = new Set(rendered.map((op) => `${op.method} ${op.path.replace(/\u200b/g, '')}`));
    const missing = apiOperations.filter((op) => !renderedKeys.has(`${op.method} ${op.path}`)).map((op) => `${op.method} ${op.path}`);
    expect(missing, 'operations not rendered').toEqual([]);
    const chat = rendered.find((op) => op.path.replace(/\u200b/g, '') === '/v1/chat/completions');
    expect(chat?.summary).toContain('chat completion');
    expect(await page.title()).toContain('API reference');

    // Swagger UI shows an errors panel when it cannot parse or resolve the document.
    expect(await page.$$eval('.errors-wrapper', (panels) => panels.map((panel) => panel.textContent))).toEqual([]);

    // An operation opens with its request body example and its error responses.
    await page.click('#operations-Chat_completions-createChatCompletion .opblock-summary-control');
    const opened = page.locator('#operations-Chat_completions-createChatCompletion');
    await opened.locator('.responses-table').first().waitFor({ timeout: 10_000 });
    const details = await opened.innerText();
    expect(details).toContain('"model": "standard"');
    for (const status of ['200', '400', '401', '402', '403', '429', '502', '503']) expect(details).toContain(status);
    expect(details).toContain('dlp_blocked');

    // Everything came from the API itself: no CDN.
    const foreign = requested.filter((url) => !url.startsWith(stack.api.url) && !url.startsWith('data:'));
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-page-'));
    const file = path.join(dir, 'docs.png');
    await page.screenshot({ path: file, fullPage: false });
    const png = fs.readFileSync(file);
    expect(png.length).toBeGreaterThan(20_000);
    expect(pngSize(png)).toEqual({ width: 1280, height: 1600 });
    console.info(`[docs-page.test] screenshot: ${file} (${png.length} bytes)`);
    await page.close();
  }, 60_000);
});
