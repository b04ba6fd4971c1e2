import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS, isNodeFlagGiven, withNodeFlags } from './node-flags.js';

describe('node flags', () => {
  it('finds a flag on the command line or in NODE_OPTIONS, with or without a value, - and _ alike', () => {
    expect(isNodeFlagGiven('--max-semi-space-size', ['--max_semi_space_size=4'], '')).toBe(true);
    expect(isNodeFlagGiven('--max-semi-space-size=8', [], '--enable-source-maps  --max-semi-space-size=2')).toBe(true);
    expect(isNodeFlagGiven('--max-semi-space-size', ['--max-old-space-size=512', '--import', 'tsx'], '')).toBe(false);
    expect(isNodeFlagGiven('--max-semi-space-size', [], 'max-semi-space-size=2')).toBe(false);
  });

  it('adds only the flags not given, the given value winning', () => {
    expect(withNodeFlags(['--max-semi-space-size=8'], ['--import', 'tsx'], '')).toEqual(['--max-semi-space-size=8', '--import', 'tsx']);
    expect(withNodeFlags(['--max-semi-space-size=8'], ['--max-semi-space-size=2'], '')).toEqual(['--max-semi-space-size=2']);
    expect(withNodeFlags(['--max-semi-space-size=8'], [], '--max-semi-space-size=32')).toEqual([]);
  });

  it('are on every command line that starts an API process', () => {
    const dockerfile = fs.readFileSync('Dockerfile', 'utf8');
    const compose = fs.readFileSync('docker-compose.yml', 'utf8');
    const dev = fs.readFileSync('scripts/dev.sh', 'utf8');
    const quoted = API_NODE_FLAGS.map((flag) => `"${flag}", `).join('');
    expect(dockerfile).toContain(`CMD ["node", ${quoted}"dist/api/main.js"]`);
    expect(compose).toContain(`command: ["node", ${quoted}"dist/api/main.js"]`);
    expect(dev).toContain(`exec node ${API_NODE_FLAGS.join(' ')} --import tsx src/dev/runner.ts`);
  });
});
