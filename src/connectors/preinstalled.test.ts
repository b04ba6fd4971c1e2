// `npx -y <package>` runs the service's own copy of the package when it is installed: node and its
// bin, nothing downloaded; anything else is left to npx as written.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { preinstalled } from './preinstalled.js';

describe('preinstalled connectors', () => {
  it('runs an installed package from node_modules with node, keeping the arguments', () => {
    const started = preinstalled({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/data/org'], env: { A: '1' } });
    expect(started.command).toBe(process.execPath);
    expect(started.args[0]).toMatch(/node_modules\/@modelcontextprotocol\/server-filesystem\/dist\/index\.js$/);
    expect(fs.existsSync(started.args[0]!)).toBe(true);
    expect(started.args.slice(1)).toEqual(['/data/org']);
    expect(started.env).toEqual({ A: '1' });
  });

  it('leaves npx alone for a package that is not installed, a pinned version, or other flags', () => {
    for (const target of [
      { command: 'npx', args: ['-y', '@modelcontextprotocol/server-not-installed-here', 'x'] },
      { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@1.0.0', 'x'] },
      { command: 'npx', args: ['--package', 'evil', '@modelcontextprotocol/server-filesystem'] },
      { command: 'uvx', args: ['mcp-server-fetch'] },
    ]) expect(preinstalled(target)).toBe(target);
  });

  it('starts the real server from its bin (it answers MCP initialize on stdio)', () => {
    const dir = fs.mkdtempSync('/tmp/preinstalled-');
    const { command, args } = preinstalled({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', dir] });
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const result = spawnSync(command, args, { input: `${initialize}\n`, timeout: 15_000, encoding: 'utf8' });
    expect(result.stdout).toContain('"serverInfo"');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
