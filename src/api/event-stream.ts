// A gateway answer streamed as server-sent events, whatever the wire format: the headers once
// the first upstream content arrived, each chunk's events as they come (waiting when the socket
// is behind), a failure after the first byte as the format's error event, then the format's end.
import type { ServerResponse } from 'node:http';
import { AppError } from '../errors.js';
import type { NormalizedChunk } from '../gateway/providers/types.js';
import type { CallSignal } from '../gateway/types.js';
import type { GatewayCall } from './gateway-call.js';

export interface EventWriter {
  /** Written first, before any chunk (the format's opening events); absent for none. */
  start?: string;
  /** The events of one chunk; undefined or '' when it makes none. */
  event(chunk: NormalizedChunk): string | undefined;
  /** The events that report a failure after the first byte. */
  error(error: AppError): string;
  /** Written last, after success or failure ('' for none). */
  end: string;
  /** After the last chunk, before `end`: the closing events, once what they report is done (a stored response). */
  complete?: () => Promise<string>;
}

export function startEventStream(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
}

/** Writes the chunks' events until the stream ends, fails, or the client goes away. */
export async function pipeEvents(res: ServerResponse, call: GatewayCall, signal: CallSignal, chunks: AsyncIterable<NormalizedChunk>, writer: EventWriter): Promise<void> {
  try {
    if (writer.start) res.write(writer.start);
    for await (const chunk of chunks) {
      const event = writer.event(chunk);
      if (!event) continue;
      if (!res.write(event)) await drained(res);
      if (signal.aborted) return;
    }
    if (writer.complete) res.write(await writer.complete());
  } catch (error) {
    if (signal.aborted) return;
    if (!(error instanceof AppError)) call.log.error({ err: error }, 'stream failed');
    res.write(writer.error(error instanceof AppError ? error : new AppError('internal_error', 'Internal server error')));
  }
  res.end(writer.end);
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
