// Every string field of the gateway's request bodies and what DLP does with it, in one place
// (SECURITY.md, "DLP"). test/security/dlp-fields.test.ts walks the request schemas and fails on a
// free-text string field missing here, then puts a secret in each scanned field of a real request.
//   text        scanned; a `mask` detector masks it
//   identifier  an id or a function/tool name: scanned, never masked (a finding blocks), so that
//               ids still match between a tool call and its result
//   url         an image URL: an https URL (which the provider fetches) is scanned as text; a
//               data:image/(png|jpeg|gif|webp);base64 URL is an image, not text, and is left
//               alone; the schemas refuse anything else (chat.schemas.ts, imageUrlProblem)
//   json        a JSON value whose every string (keys included) is scanned as text
//   routing     read by the gateway to choose a route and never sent upstream as written (the
//               target's upstream model is sent instead)
//   file        a file's bytes, a PDF as a data:application/pdf;base64 URL (valid base64, checked
//               by the schemas): not text, sent as they are and left alone
//   data        a Messages block's `source.data`: the bytes (valid base64) of an image or a PDF,
//               not text, sent as they are and left alone like a data: URL; or the text of a
//               plain-text document (`source.type` text), which is scanned as text
//   signed      an earlier answer's thinking (text, signature, redacted data), which the upstream
//               checks against its signature: scanned as text, a block finding blocks, and a mask
//               finding leaves the turn's thinking out rather than masked
//   ignored     accepted and never sent upstream (kept at most with a stored response, which is
//               encrypted and read back only by the organization)
// The Responses and Messages routes translate their bodies into the chat request, so their fields
// reach the same scan; a stop sequence is an identifier (a masked one would be another sequence).
export type FieldTreatment = 'text' | 'identifier' | 'url' | 'json' | 'file' | 'data' | 'signed' | 'routing' | 'ignored';

export const CHAT_REQUEST_FIELDS: Readonly<Record<string, FieldTreatment>> = {
  model: 'routing',
  'messages[].content': 'text',
  'messages[].content[].text': 'text',
  'messages[].content[].image_url.url': 'url',
  'messages[].content[].file.file_data': 'file',
  'messages[].content[].file.filename': 'text',
  'messages[].name': 'identifier',
  'messages[].tool_calls[].id': 'identifier',
  'messages[].tool_calls[].function.name': 'identifier',
  'messages[].tool_calls[].function.arguments': 'text',
  'messages[].tool_call_id': 'identifier',
  'tools[].function.name': 'identifier',
  'tools[].function.description': 'text',
  'tools[].function.parameters': 'json',
  'tool_choice.function.name': 'identifier',
  'response_format.json_schema.name': 'identifier',
  'response_format.json_schema.description': 'text',
  'response_format.json_schema.schema': 'json',
  // Sent to an OpenAI-style upstream as it is.
  prompt_cache_key: 'identifier',
};

export const EMBEDDING_REQUEST_FIELDS: Readonly<Record<string, FieldTreatment>> = {
  model: 'routing',
  input: 'text',
  'input[]': 'text',
  user: 'identifier',
};

export const RESPONSES_REQUEST_FIELDS: Readonly<Record<string, FieldTreatment>> = {
  model: 'routing',
  input: 'text',
  instructions: 'text',
  'input[].id': 'ignored',
  'input[].content': 'text',
  'input[].content[].text': 'text',
  'input[].content[].refusal': 'text',
  // A reasoning item: its signed thinking (this gateway's encrypted_content) goes back to an
  // Anthropic upstream when the request thinks; its summary never goes anywhere, nor does the text
  // of its content parts (which share the path of a message's, scanned as text).
  'input[].encrypted_content': 'signed',
  'input[].summary[].text': 'ignored',
  'input[].content[].image_url': 'url',
  'input[].content[].file_data': 'file',
  'input[].content[].filename': 'text',
  'input[].call_id': 'identifier',
  'input[].name': 'identifier',
  'input[].arguments': 'text',
  'input[].output': 'text',
  'input[].output[].text': 'text',
  'input[].output[].image_url': 'url',
  'input[].output[].file_data': 'file',
  'input[].output[].filename': 'text',
  'tools[].name': 'identifier',
  'tools[].description': 'text',
  'tools[].parameters': 'json',
  'tool_choice.name': 'identifier',
  'text.format.name': 'identifier',
  'text.format.description': 'text',
  'text.format.schema': 'json',
  'metadata.*': 'ignored',
  previous_response_id: 'ignored',
  prompt_cache_key: 'identifier',
};

export const MESSAGES_REQUEST_FIELDS: Readonly<Record<string, FieldTreatment>> = {
  model: 'routing',
  system: 'text',
  'system[].text': 'text',
  'messages[].content': 'text',
  'messages[].content[].text': 'text',
  'messages[].content[].source.data': 'data',
  // A document's title (a PDF's file name upstream) and context are text.
  'messages[].content[].title': 'text',
  'messages[].content[].context': 'text',
  'messages[].content[].source.url': 'url',
  'messages[].content[].id': 'identifier',
  'messages[].content[].name': 'identifier',
  'messages[].content[].input': 'json',
  'messages[].content[].tool_use_id': 'identifier',
  // An earlier answer's thinking goes back to an Anthropic upstream when the request thinks.
  'messages[].content[].thinking': 'signed',
  'messages[].content[].signature': 'signed',
  'messages[].content[].data': 'signed',
  'messages[].content[].content': 'text',
  'messages[].content[].content[].text': 'text',
  // A tool result's images and documents go with it (inside the tool_result, or in a user message after it).
  'messages[].content[].content[].source.data': 'data',
  'messages[].content[].content[].title': 'text',
  'messages[].content[].content[].context': 'text',
  'messages[].content[].content[].source.url': 'url',
  'tools[].name': 'identifier',
  'tools[].description': 'text',
  'tools[].input_schema': 'json',
  'tool_choice.name': 'identifier',
  'stop_sequences[]': 'identifier',
  // Sent to an Anthropic upstream as it is (an opaque id of the end user).
  'metadata.user_id': 'identifier',
};
