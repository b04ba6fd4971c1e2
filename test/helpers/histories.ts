// Replay fixtures: binary temporal.api.history.v1.History messages in test/fixtures/histories,
// replayed by test/workflows/replay.test.ts. Tests that produce a scenario worth replaying write
// its history here when run with RECORD_HISTORIES=1; the patch ids a history recorded (the
// `core_patch` markers that `patched()` writes) tell which code path it took.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import proto from '@temporalio/proto';

type History = proto.temporal.api.history.v1.IHistory;

export const HISTORIES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/histories');

/** Set when the run should (re)write the replay fixtures. */
export const RECORDING = Boolean(process.env.RECORD_HISTORIES);

export function readHistoryFixture(file: string): proto.temporal.api.history.v1.History {
  return proto.temporal.api.history.v1.History.decode(fs.readFileSync(path.join(HISTORIES_DIR, file)));
}

export function writeHistoryFixture(file: string, history: History): void {
  const message = proto.temporal.api.history.v1.History.fromObject(history);
  fs.writeFileSync(path.join(HISTORIES_DIR, file), proto.temporal.api.history.v1.History.encode(message).finish());
}

/** The ids of the patches a history recorded, in order (each `core_patch` marker's `patch-data` names one). */
export function patchIds(history: History): string[] {
  return (history.events ?? []).flatMap((event) => {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_patch') return [];
    return (marker.details?.['patch-data']?.payloads ?? []).map((payload) => {
      const data = JSON.parse(Buffer.from(payload.data ?? new Uint8Array()).toString('utf8')) as { id: string };
      return data.id;
    });
  });
}

/**
 * The attempts of each activity of a history, by activity type (the started event carries its
 * attempt; the last attempt of a completed activity is recorded, earlier ones are not).
 */
export function activityAttempts(history: History): Record<string, number[]> {
  const typeOf = new Map<string, string>();
  const attempts: Record<string, number[]> = {};
  for (const event of history.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) typeOf.set(String(event.eventId), scheduled.activityType?.name ?? '');
    const started = event.activityTaskStartedEventAttributes;
    if (started) (attempts[typeOf.get(String(started.scheduledEventId))!] ??= []).push(started.attempt ?? 0);
  }
  return attempts;
}
