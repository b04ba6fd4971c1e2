// Operator catalog entries (TOOLS_CATALOG_EXTRA) that launch the fixture MCP server, the way an
// operator adds a connector the shipped catalog lacks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stdioFixtureLaunch } from '../fixtures/mcp-server.js';

export function writeFixtureCatalog(remote: { okUrl: string; hangUrl: string; statefulUrl?: string }): string {
  const ok = stdioFixtureLaunch('ok', ['--page-size', '3']);
  const fail = stdioFixtureLaunch('fail');
  const hang = stdioFixtureLaunch('hang');
  const common = { category: 'testing', description: 'The test fixture MCP server' };
  // The tests pass an absolute file outside any organization directory: the operator says it is no path to confine.
  const pidFileIsText = { FIXTURE_PID_FILE: 'text' };
  const connectors = [
    { ...common, id: 'fixture-stdio', name: 'Fixture (stdio)', transport: 'stdio', ...ok, requiredEnvVars: ['FIXTURE_TOKEN'], optionalEnvVars: ['FIXTURE_PID_FILE'], envTypes: pidFileIsText },
    { ...common, id: 'fixture-fail', name: 'Fixture (exits)', transport: 'stdio', ...fail, requiredEnvVars: ['FIXTURE_TOKEN'] },
    { ...common, id: 'fixture-hang', name: 'Fixture (hangs)', transport: 'stdio', ...hang, optionalEnvVars: ['FIXTURE_PID_FILE'], envTypes: pidFileIsText },
    { ...common, id: 'fixture-missing', name: 'Fixture (no such command)', transport: 'stdio', command: '/nonexistent/mcp-server', args: [] },
    {
      ...common,
      id: 'fixture-http',
      name: 'Fixture (Streamable HTTP)',
      transport: 'streamable-http',
      command: remote.okUrl,
      url: remote.okUrl,
      headers: { Authorization: 'Bearer ${FIXTURE_TOKEN}' },
      requiredEnvVars: ['FIXTURE_TOKEN'],
    },
    { ...common, id: 'fixture-http-hang', name: 'Fixture (HTTP, hangs)', transport: 'streamable-http', command: remote.hangUrl, url: remote.hangUrl },
    ...(remote.statefulUrl
      ? [{ ...common, id: 'fixture-http-session', name: 'Fixture (HTTP, sessions)', transport: 'streamable-http', command: remote.statefulUrl, url: remote.statefulUrl }]
      : []),
  ];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-catalog-'));
  const file = path.join(dir, 'catalog.json');
  fs.writeFileSync(file, JSON.stringify({ connectors }));
  return file;
}

/** True while the process exists and is not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
