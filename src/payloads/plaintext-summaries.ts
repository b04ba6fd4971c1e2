// Static summaries (what the Web UI lists beside a workflow) stay readable without the codec: a
// summary built with `plaintextSummary()` is remembered until the payload converter turns it into
// a payload marked plaintext, which the codec then leaves alone. Only the service's own summary
// texts (ids, trigger types, automation names) are ever registered, so a customer value that
// happens to equal one reveals nothing the summary does not already show.
// Workflow-safe: used by workflow code and by the API alike.

const pending = new Map<string, number>();
/** Summaries never converted (a start that failed first) must not pile up. */
const MAX_PENDING = 10_000;

/** Returns `text`, registered to be stored in plaintext by the next conversion of that text. */
export function plaintextSummary(text: string): string {
  if (pending.size >= MAX_PENDING) pending.clear();
  pending.set(text, (pending.get(text) ?? 0) + 1);
  return text;
}

/** True (once per registration) when `text` was registered by `plaintextSummary()`. */
export function takePlaintextSummary(text: string): boolean {
  const count = pending.get(text);
  if (!count) return false;
  if (count === 1) pending.delete(text);
  else pending.set(text, count - 1);
  return true;
}
