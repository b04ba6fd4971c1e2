// Every string field of the gateway's request bodies and what DLP does with it, in one place
// (SECURITY.md, "DLP"). test/security/dlp-fields.test.ts walks the request schemas and fails on a
// free-text string field missing here, then puts a secret in each scanned field of a real request.
//   text        scanned; a `mask` detector masks it
//   identifier  an id or a function/tool name: scanned, never masked (a finding blocks), so that
//               ids still match between a tool call and its result
//   url         an image URL the provider fetches: an http(s) URL is scanned as text; a data: URL
//               is an image, not text, and is left alone
//   json        a JSON value whose every string (keys included) is scanned as text
//   routing     read by the gateway to choose a route and never sent upstream as written (the
//               target's upstream model is sent instead)
export type FieldTreatment = 'text' | 'identifier' | 'url' | 'json' | 'routing';

export const CHAT_REQUEST_FIELDS: Readonly<Record<string, FieldTreatment>> = {
  model: 'routing',
  'messages[].content': 'text',
  'messages[].content[].text': 'text',
  'messages[].content[].image_url.url': 'url',
  'messages[].name': 'identifier',
  'messages[].tool_calls[].id': 'identifier',
  'messages[].tool_calls[].function.name': 'identifier',
  'messages[].tool_calls[].function.arguments': 'text',
  'messages[].tool_call_id': 'identifier',
  'tools[].function.name': 'identifier',
  'tools[].function.description': 'text',
  'tools[].function.parameters': 'json',
  'tool_choice.function.name': 'identifier',
};

export const EMBEDDING_REQUEST_FIELDS: Readonly<Record<string, FieldTreatment>> = {
  model: 'routing',
  input: 'text',
  'input[]': 'text',
  user: 'identifier',
};
