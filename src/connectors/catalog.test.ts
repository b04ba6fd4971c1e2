import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import shipped from './catalog.json' with { type: 'json' };
import { buildCatalog, catalogFor, CatalogError, fillPlaceholders } from './catalog.js';

const extraEntry = {
  id: 'internal-crm',
  name: 'CRM',
  category: 'sales',
  description: 'In-house CRM connector',
  transport: 'stdio',
  command: '/opt/crm/mcp',
  args: ['--api', '${CRM_URL}'],
  requiredEnvVars: ['CRM_URL'],
};

describe('connector catalog', () => {
  it('ships the MCP reference servers with real launch commands and unique ids', () => {
    const catalog = buildCatalog([{ source: 'catalog.json', content: shipped }]);
    const ids = catalog.entries.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ['filesystem', 'fetch', 'memory', 'git', 'github', 'slack', 'postgres']) expect(ids).toContain(id);
    expect(catalog.find('memory')).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
    expect(catalog.find('git')).toMatchObject({ command: 'uvx', args: ['mcp-server-git'] });
    expect(catalog.find('postgres')).toMatchObject({ requiredEnvVars: ['POSTGRES_URL'] });
  });

  it('adds operator entries and lets one replace a shipped entry with the same id', () => {
    const override = { ...extraEntry, id: 'filesystem', args: ['-y', '@modelcontextprotocol/server-filesystem', '/data'], requiredEnvVars: [] };
    const catalog = buildCatalog([
      { source: 'catalog.json', content: shipped },
      { source: 'extra', content: { connectors: [extraEntry, override] } },
    ]);
    expect(catalog.find('internal-crm')).toMatchObject({ command: '/opt/crm/mcp', optionalEnvVars: [], env: {} });
    expect(catalog.find('filesystem')).toMatchObject({ args: ['-y', '@modelcontextprotocol/server-filesystem', '/data'] });
    expect(catalog.entries.filter((entry) => entry.id === 'filesystem')).toHaveLength(1);
  });

  it('rejects an entry that uses a placeholder it does not declare', () => {
    const bad = { ...extraEntry, requiredEnvVars: [] };
    expect(() => buildCatalog([{ source: 'extra', content: { connectors: [bad] } }])).toThrow(/internal-crm uses \$\{CRM_URL\} without declaring it/);
  });

  it('rejects an invalid entry naming the file and the field', () => {
    const bad = { ...extraEntry, transport: 'carrier-pigeon' };
    expect(() => buildCatalog([{ source: 'my-file.json', content: { connectors: [bad] } }])).toThrow(CatalogError);
    expect(() => buildCatalog([{ source: 'my-file.json', content: { connectors: [bad] } }])).toThrow(/my-file\.json: connectors\.0\.transport/);
  });

  it('fails fast when TOOLS_CATALOG_EXTRA is missing or not JSON', () => {
    expect(() => catalogFor({ TOOLS_CATALOG_EXTRA: '/nonexistent/catalog.json' })).toThrow(/TOOLS_CATALOG_EXTRA/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-')), 'bad.json');
    fs.writeFileSync(file, '{ not json');
    expect(() => catalogFor({ TOOLS_CATALOG_EXTRA: file })).toThrow(/not valid JSON/);
  });

  it('fills declared placeholders and leaves unset optional ones empty', () => {
    expect(fillPlaceholders('--db=${DB_URL}', { DB_URL: 'postgres://x' })).toBe('--db=postgres://x');
    expect(fillPlaceholders('Bearer ${TOKEN}', {})).toBe('Bearer ');
  });
});
