import { describe, expect, it } from 'vitest';
import { CLIENT_MESSAGE_LIMIT, classifyUpstreamError } from './errors.js';

const openAiBody = (error: Record<string, unknown>) => JSON.stringify({ error });
const anthropicBody = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message } });

describe('classifyUpstreamError', () => {
  it.each([400, 413, 422])('calls a %i the request\'s own fault, not retryable, with the upstream\'s message and param', (status) => {
    const info = classifyUpstreamError(status, openAiBody({ message: 'Invalid value for temperature: 7', type: 'invalid_request_error', param: 'temperature', code: null }));
    expect(info).toEqual({ retryable: false, clientFault: true, message: 'Invalid value for temperature: 7', param: 'temperature' });
  });

  it("reads Anthropic's error shape alike (no param)", () => {
    const info = classifyUpstreamError(400, anthropicBody('invalid_request_error', 'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum'));
    expect(info).toEqual({ retryable: false, clientFault: true, message: 'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum' });
  });

  it('bounds the message passed on and takes out control characters', () => {
    const info = classifyUpstreamError(400, openAiBody({ message: `bad\u0000\u001b[31m ${'x'.repeat(5_000)}` }));
    expect(info.message.length).toBe(CLIENT_MESSAGE_LIMIT);
    expect(info.message).toMatch(/^bad \[31m x+…$/);
  });

  it('passes on a param only when it looks like a field path', () => {
    expect(classifyUpstreamError(400, openAiBody({ message: 'bad', param: 'messages[0].content' })).param).toBe('messages[0].content');
    expect(classifyUpstreamError(400, openAiBody({ message: 'bad', param: 'drop table "users"; --' })).param).toBeUndefined();
  });

  it('says what the status was when the body has no message', () => {
    expect(classifyUpstreamError(422, '<html>unprocessable</html>')).toEqual({ retryable: false, clientFault: true, message: 'The upstream provider returned an error (422)' });
  });

  it('keeps a context-window error for the fallbacks, without the upstream\'s message', () => {
    const info = classifyUpstreamError(400, openAiBody({ message: 'your prompt: secret text', type: 'invalid_request_error', code: 'context_length_exceeded' }));
    expect(info).toMatchObject({ retryable: false, clientFault: true, contextLengthExceeded: true });
    expect(info.message).not.toContain('secret');
  });

  it.each([401, 403])('passes nothing of the body on when the upstream refused our credentials (%i)', (status) => {
    const info = classifyUpstreamError(status, openAiBody({ message: 'Incorrect API key provided: sk-abc***xyz', type: 'invalid_request_error', code: 'invalid_api_key', param: 'key' }));
    expect(info).toEqual({ retryable: false, message: `The upstream provider rejected the gateway's credentials (${status})` });
  });

  it('keeps an upstream that failed retryable and its message its own', () => {
    expect(classifyUpstreamError(500, openAiBody({ message: 'internal secret' }))).toEqual({ retryable: true, message: 'The upstream provider is unavailable (500)' });
    expect(classifyUpstreamError(404, openAiBody({ message: 'model gpt-x not found', type: 'not_found_error' }))).toEqual({
      retryable: false,
      message: 'The upstream provider returned an error (404): not_found_error',
    });
  });
});
