// Incremental server-sent events parser: bytes in (split anywhere), complete events out.
import type { SseEvent } from './providers/types.js';

export class SseParser {
  private buffer = '';
  private readonly decoder = new TextDecoder();

  push(bytes: Uint8Array): SseEvent[] {
    this.buffer += this.decoder.decode(bytes, { stream: true });
    const events: SseEvent[] = [];
    let boundary = this.findBoundary();
    while (boundary) {
      const block = this.buffer.slice(0, boundary.index);
      this.buffer = this.buffer.slice(boundary.index + boundary.length);
      const event = parseBlock(block);
      if (event) events.push(event);
      boundary = this.findBoundary();
    }
    return events;
  }

  private findBoundary(): { index: number; length: number } | undefined {
    const match = /\r\n\r\n|\n\n|\r\r/.exec(this.buffer);
    return match ? { index: match.index, length: match[0].length } : undefined;
  }
}

function parseBlock(block: string): SseEvent | undefined {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  }
  if (data.length === 0) return undefined;
  return event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') };
}
