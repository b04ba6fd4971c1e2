import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { createSkillBody, createVersionBody, listSkillsQuery, paramOf, parseInput, parseUpdateSkill, versionParam } from './skills.schemas.js';

function badRequestOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a bad_request');
}

const valid = { name: 'n', description: 'd', category: 'data', systemPrompt: 'p' };

describe('parseInput', () => {
  it('applies the documented defaults on create', () => {
    expect(parseInput(createSkillBody, valid)).toEqual({ ...valid, modelTier: 'standard', tools: [], approvalRequired: [], visibility: 'private' });
  });

  it('trims name and description but keeps the prompt verbatim', () => {
    const parsed = parseInput(createSkillBody, { ...valid, name: '  Name ', systemPrompt: '  keep\n' });
    expect(parsed.name).toBe('Name');
    expect(parsed.systemPrompt).toBe('  keep\n');
  });

  it('says a missing field is required and names it', () => {
    const error = badRequestOf(() => parseInput(createVersionBody, {}));
    expect(error.code).toBe('bad_request');
    expect(error.param).toBe('systemPrompt');
    expect(error.message).toBe("Missing required field 'systemPrompt'");
  });

  it('names the array element at fault', () => {
    expect(badRequestOf(() => parseInput(createSkillBody, { ...valid, tools: ['ok', 'NOT OK'] })).param).toBe('tools[1]');
  });

  it('names an unknown field', () => {
    const error = badRequestOf(() => parseInput(createSkillBody, { ...valid, extra: 1 }));
    expect(error.param).toBe('extra');
    expect(error.message).toBe("Unknown field 'extra'");
  });

  it('names the root when the value is wrong as a whole', () => {
    expect(badRequestOf(() => parseInput(createSkillBody, 'text')).param).toBe('body');
    expect(badRequestOf(() => parseInput(versionParam, 'x', 'version')).param).toBe('version');
  });

  it('defaults list paging to limit 20, offset 0 and coerces query strings', () => {
    expect(parseInput(listSkillsQuery, {}, 'query')).toEqual({ limit: 20, offset: 0 });
    expect(parseInput(listSkillsQuery, { limit: '5', offset: '10' }, 'query')).toEqual({ limit: 5, offset: 10 });
  });
});

describe('parseUpdateSkill', () => {
  it.each(['systemPrompt', 'tools', 'modelTier'])('refuses %s and points to the versions endpoint', (field) => {
    const error = badRequestOf(() => parseUpdateSkill({ [field]: 'x' }));
    expect(error.param).toBe(field);
    expect(error.message).toContain('POST /skills/{id}/versions');
  });

  it('accepts an empty update and any subset of the metadata', () => {
    expect(parseUpdateSkill({})).toEqual({});
    expect(parseUpdateSkill({ visibility: 'team' })).toEqual({ visibility: 'team' });
  });
});

describe('paramOf', () => {
  it('joins paths the way clients name fields', () => {
    expect(paramOf(['tools', 3], 'body')).toBe('tools[3]');
    expect(paramOf(['channels', 0, 'target'], 'body')).toBe('channels[0].target');
    expect(paramOf([], 'query')).toBe('query');
  });
});
