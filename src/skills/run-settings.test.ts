import { describe, expect, it } from 'vitest';
import { withSkill, withoutSkill, type AutomationRunSource } from './run-settings.js';

const automation: AutomationRunSource = {
  organizationId: 'org',
  ownerId: 'user',
  systemPrompt: 'Summarize yesterday.',
  model: 'fast-model',
  tools: ['slack', 'github'],
};
const skill = { skillId: 'skill-1', version: 3, systemPrompt: 'You write release notes.', tools: ['github', 'jira'], approvalRequired: ['github__create_issue'], modelTier: 'premium' as const };

describe('run settings', () => {
  it('uses the automation as it is without a skill', () => {
    expect(withoutSkill(automation)).toEqual({ systemPrompt: 'Summarize yesterday.', model: 'fast-model', tools: ['slack', 'github'], approvalRequired: [], skill: null });
  });

  it("puts the skill version's prompt first, takes its tier and merges the tools once each", () => {
    expect(withSkill(automation, skill)).toEqual({
      systemPrompt: 'You write release notes.\n\nSummarize yesterday.',
      model: 'premium',
      tools: ['github', 'jira', 'slack'],
      approvalRequired: ['github__create_issue'],
      skill: { skillId: 'skill-1', version: 3 },
    });
  });

  it('uses the skill prompt alone when the automation adds none', () => {
    expect(withSkill({ ...automation, systemPrompt: '  ' }, skill).systemPrompt).toBe('You write release notes.');
  });
});
