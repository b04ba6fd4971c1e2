// Node and V8 flags the service's processes run with. V8 reads a young generation's bound when it
// creates an isolate, so a process cannot bound its own main thread's: the command lines carry
// the flags (Dockerfile, docker-compose.yml, scripts/dev.sh, the API primary's forks, the gateway
// benchmark), and a value the operator gives on the command line or in NODE_OPTIONS is kept.

/**
 * The largest semi-space of an API process's young generation, MB. V8's default grows it with the
 * allocation rate: to 16 MB on Node 20 (a 32 MB young generation) and to 64 MB on Node 24, the
 * production image's runtime (128 MB, never given back while the process stays busy). A gateway
 * request's garbage is short-lived and a small young generation collects it as well: at 1,000
 * open streams the API's RSS was 218-227 MB with 8 against 305-350 MB with Node 24's default, for
 * 3-7% more CPU per request; on Node 20 ~12 MB less (bench/gateway/streams-probe.ts, BENCHMARKS.md).
 */
export const API_SEMI_SPACE_MB = 8;

/** The flags an API process runs with, as on the production command line. */
export const API_NODE_FLAGS: readonly string[] = [`--max-semi-space-size=${API_SEMI_SPACE_MB}`];

/**
 * The largest semi-space of the workflow threads' young generation, MB (V8's default: 16, so
 * 32 MB of young generation per thread once a burst has grown it, and never given back while the
 * thread stays busy). A workflow activation allocates short-lived objects (the decoded
 * activation, promises and their stack traces) that a small young generation collects as well:
 * with 4 the two workflow threads held 48 MB less at the peak of 1,000 fires
 * (bench/automations/memory-probe.mjs). The worker sets it for its threads (src/worker/worker.ts).
 */
export const WORKFLOW_THREAD_SEMI_SPACE_MB = 4;

/**
 * The flags a worker process runs with, as on the production command line (docker-compose.yml):
 * its main thread's young generation bounded like its workflow threads'.
 */
export const WORKER_NODE_FLAGS: readonly string[] = [`--max-semi-space-size=${WORKFLOW_THREAD_SEMI_SPACE_MB}`];

/** Whether a flag named like `name` was given on the command line or in NODE_OPTIONS (`-` and `_` alike). */
export function isNodeFlagGiven(name: string, execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  const bare = (flag: string) => flag.replace(/^--/, '').split('=')[0]!.replaceAll('_', '-');
  const wanted = bare(name);
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((flag) => flag.startsWith('--') && bare(flag) === wanted);
}

/** `execArgv` with each of `flags` added that was not given already. */
export function withNodeFlags(flags: readonly string[], execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  return [...flags.filter((flag) => !isNodeFlagGiven(flag, execArgv, nodeOptions)), ...execArgv];
}
