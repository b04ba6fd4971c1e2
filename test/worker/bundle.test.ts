// The workflow bundle as every workflow thread holds it (src/worker/bundle.ts): ASCII only (V8
// would otherwise store it at two bytes per character), an inline source map without the
// sources' text, and mappings that still lead a stack frame back to our source file.
import fs from 'node:fs';
import { SourceMapConsumer, type RawSourceMap } from 'source-map';
import { describe, expect, inject, it } from 'vitest';
import { asciiOnly } from '../../src/worker/bundle.js';

function readBundle(): { code: string; sourceMap: RawSourceMap } {
  const code = fs.readFileSync(inject('workflowBundlePath'), 'utf8');
  const base64 = code.indexOf('base64,', code.lastIndexOf('//# sourceMappingURL=data:'));
  const sourceMap = JSON.parse(Buffer.from(code.slice(base64 + 'base64,'.length).trimEnd(), 'base64').toString('utf8')) as RawSourceMap;
  return { code, sourceMap };
}

describe('workflow bundle', () => {
  it('is ASCII only', () => {
    expect(/[\u0080-\uffff]/.exec(readBundle().code)).toBeNull();
  });

  it('carries an inline source map without the sources, whose mappings lead to our source files', async () => {
    const { code, sourceMap } = readBundle();
    expect(sourceMap.sourcesContent ?? []).toEqual([]);
    const lines = code.split('\n');
    const line = lines.findIndex((text) => text.startsWith('async function automationWorkflow(')) + 1;
    expect(line).toBeGreaterThan(0);
    const original = await SourceMapConsumer.with(sourceMap, null, (consumer) => consumer.originalPositionFor({ line, column: 'async function '.length }));
    expect(original.source).toMatch(/src\/workflows\/automation\.ts$/);
    expect(original.line).toBeGreaterThan(0);
  });

  it('escapes non-ASCII characters to the same characters', () => {
    const source = 'const dash = "—", word = `Baagøe`; // — comment';
    const escaped = asciiOnly(source);
    expect(escaped).toBe('const dash = "\\u2014", word = `Baag\\u00f8e`; // \\u2014 comment');
    expect(new Function(`${escaped}\nreturn [dash, word];`)()).toEqual(['—', 'Baagøe']);
  });
});
