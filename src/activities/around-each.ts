// The activities' wrappers (./database-outages.ts, ./heartbeats.ts) put the same code around every
// activity function, keeping each one's own signature.

// `any`: activity functions of every signature; the wrapper keeps each one's own type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ActivityFunction = (...args: any[]) => Promise<unknown>;

/** Each activity of `activities`, run through `around`. */
export function aroundEach<T extends Record<string, ActivityFunction>>(activities: T, around: <R>(run: () => Promise<R>) => Promise<R>): T {
  const wrapped: Record<string, ActivityFunction> = {};
  for (const [name, activity] of Object.entries(activities)) {
    wrapped[name] = (...args: unknown[]) => around(() => activity(...args));
  }
  return wrapped as T;
}
