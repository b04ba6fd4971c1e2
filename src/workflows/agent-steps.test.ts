import { describe, expect, it } from 'vitest';
import { AGENT_STEP_OPTIONS, LOST_ATTEMPT_NOTICE } from './agent-steps.js';

describe('AGENT_STEP_OPTIONS', () => {
  // An attempt lost with the Temporal server is retried only when it times out: a step whose
  // start-to-close timeout runs to minutes must notice it by its heartbeat timeout instead.
  it('gives every retried step the 15 s heartbeat timeout', () => {
    const retried = Object.entries(AGENT_STEP_OPTIONS).filter(([, options]) => options.retry.maximumAttempts !== 1);
    expect(retried.map(([step]) => step).sort()).toEqual(['delivery', 'inputScan', 'model', 'toolListing']);
    for (const [step, options] of retried) {
      expect('heartbeatTimeout' in options ? options.heartbeatTimeout : undefined, step).toBe(LOST_ATTEMPT_NOTICE.heartbeatTimeout);
    }
    expect(LOST_ATTEMPT_NOTICE.heartbeatTimeout).toBe('15 seconds');
  });

  it('leaves a tool call (not retried: it may have acted) without one, so an outage it outlives does not fail it', () => {
    expect(AGENT_STEP_OPTIONS.toolCall).not.toHaveProperty('heartbeatTimeout');
    expect(AGENT_STEP_OPTIONS.toolCall.retry.maximumAttempts).toBe(1);
  });
});
