import { describe, expect, it } from 'vitest';
import { approvalModeFor, isRememberableTool, toolApprovalsSchema } from './policy.js';

const none = { skillAlways: [], own: {}, connection: {} };

describe('approvalModeFor', () => {
  it('is never when nothing names the tool', () => {
    expect(approvalModeFor(none, 'github', 'create_issue')).toBe('never');
  });

  it("lets the skill's always win over the automation's never", () => {
    const sources = { ...none, skillAlways: ['github__create_issue'], own: { github__create_issue: 'never' as const } };
    expect(approvalModeFor(sources, 'github', 'create_issue')).toBe('always');
    expect(approvalModeFor({ ...sources, skillAlways: ['github__*'] }, 'github', 'create_issue')).toBe('always');
  });

  it("takes the automation's exact entry before its wildcard", () => {
    const sources = { ...none, own: { github__create_issue: 'never' as const, 'github__*': 'always' as const } };
    expect(approvalModeFor(sources, 'github', 'create_issue')).toBe('never');
    expect(approvalModeFor(sources, 'github', 'close_issue')).toBe('always');
  });

  it("takes the automation's wildcard before the connection's default", () => {
    const sources = { ...none, own: { 'github__*': 'never' as const }, connection: { github__create_issue: 'always' as const } };
    expect(approvalModeFor(sources, 'github', 'create_issue')).toBe('never');
  });

  it("falls back to the connection's default, exact then wildcard", () => {
    const sources = { ...none, connection: { 'filesystem__*': 'always' as const, filesystem__read_file: 'never' as const } };
    expect(approvalModeFor(sources, 'filesystem', 'write_file')).toBe('always');
    expect(approvalModeFor(sources, 'filesystem', 'read_file')).toBe('never');
  });

  it('ignores inherited keys (a policy is plain data)', () => {
    expect(approvalModeFor(none, 'constructor', 'x')).toBe('never');
  });
});

describe('toolApprovalsSchema', () => {
  it('names the bad entry', () => {
    const parsed = toolApprovalsSchema.safeParse({ 'github__*': 'always', create_issue: 'always' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['create_issue']);
  });

  it('refuses a mode other than always or never', () => {
    const parsed = toolApprovalsSchema.safeParse({ github__create_issue: 'sometimes' });
    expect(parsed.error?.issues[0]?.path).toEqual(['github__create_issue']);
  });
});

describe('isRememberableTool', () => {
  it('takes a tool name in the function-name alphabet', () => {
    expect(isRememberableTool('fixture-http__add')).toBe(true);
    expect(isRememberableTool('github__create_issue')).toBe(true);
    expect(isRememberableTool('github__create__issue')).toBe(true);
    expect(isRememberableTool('github__Create-Issue_2')).toBe(true);
  });

  it('refuses a server tool named * (it would remember every tool of the connector)', () => {
    expect(isRememberableTool('github__*')).toBe(false);
  });

  it.each(['github__a*b', 'github__a.b', 'github__a b', 'github__a/b', 'github__ä', 'github__', 'github', '__add', `github__${'a'.repeat(201)}`])(
    'refuses %s',
    (tool) => {
      expect(isRememberableTool(tool)).toBe(false);
    },
  );
});
