// Short-lived MCP sessions with a connector: start it (a process group over stdio, or a
// Streamable HTTP endpoint), initialize, do the work, close and kill, all under one deadline.
// Failures come back as ConnectorFailure naming the stage that failed; messages never carry
// the connection's secret values (stderr is redacted before it is quoted).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import net from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { Logger } from '../logger.js';
import { fillPlaceholders, placeholdersIn, type CatalogEntry } from './catalog.js';
import { normaliseAddress } from '../net/addresses.js';
import type { ProcessGroupTransport } from './process-transport.js';
import { preinstalled } from './preinstalled.js';
import { requestFetch } from './request-fetch.js';
import { processSlots, sandboxCommand, SlotUnavailable } from './sandbox.js';

export type SessionStage = 'start' | 'initialize' | 'tools/list' | 'tools/call' | 'shutdown';

export class ConnectorFailure extends Error {
  constructor(readonly stage: SessionStage, message: string, readonly timedOut = false, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ConnectorFailure';
  }
}

export interface ConnectorLaunch {
  entry: CatalogEntry;
  /** The connection's decrypted variables (declared names only), as confinement rewrote them. */
  env: Record<string, string>;
  /** How the connector is confined (confinement.ts `confinedLaunch`); absent only in unit tests. */
  confinement?: LaunchConfinement;
}

export interface LaunchConfinement {
  /** The organization's directory: `${ORG_DATA_DIR}` and the working directory. */
  orgDir: string;
  /** Checked addresses per host name: a remote connector connects to these and nothing else. */
  pins: Map<string, string[]>;
  memoryMb: number;
  maxProcesses: number;
  logger?: Pick<Logger, 'warn'>;
}

export interface ConnectorSession {
  /** Every tool the server offers, following tools/list pagination. */
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Process group id of a stdio connector, for diagnostics and tests. */
  readonly pid: number | undefined;
}

const CLIENT_INFO = { name: 'ai-workspace', version: '0.1.0' };
/** A server that keeps handing out cursors is cut off here. */
const MAX_TOOL_PAGES = 50;
const STDERR_QUOTE_CHARS = 300;

/** The MCP SDK's client and the two transports, as a session uses them. */
interface SessionModules {
  Client: typeof Client;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  ProcessGroupTransport: typeof ProcessGroupTransport;
}

let sessionModules: Promise<SessionModules> | undefined;

/**
 * Loaded at the first session, not with this module: the MCP SDK (its zod schemas for the whole
 * protocol, ajv) is ~8 MB of heap and ~15 MB of RSS, and most processes that import this module
 * (every worker, through the run activities) never open a session.
 */
function loadSessionModules(): Promise<SessionModules> {
  sessionModules ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('./process-transport.js'),
  ]).then(
    ([client, http, stdio]) => ({ Client: client.Client, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport, ProcessGroupTransport: stdio.ProcessGroupTransport }),
    (error: unknown) => {
      sessionModules = undefined;
      throw error;
    },
  );
  return sessionModules;
}

/**
 * Runs `work` in a fresh session. `timeoutMs` covers everything including shutdown: the work
 * gets the deadline minus a kill grace, so a hanging connector is gone when this returns.
 */
export async function withConnectorSession<T>(
  launch: ConnectorLaunch,
  timeoutMs: number,
  work: (session: ConnectorSession) => Promise<T>,
): Promise<T> {
  const modules = await loadSessionModules();
  const killGraceMs = Math.min(1000, Math.floor(timeoutMs / 4));
  const deadline = Date.now() + timeoutMs - killGraceMs;
  const release = await processSlotFor(launch, deadline);
  const { transport, dispose } = createTransport(modules, launch, killGraceMs, Math.ceil(timeoutMs / 1000) + 1);
  const client = new modules.Client(CLIENT_INFO, { capabilities: {} });
  const stage: { current: SessionStage } = { current: 'initialize' };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), Math.max(0, deadline - Date.now()));
  const requestOptions = () => ({ signal: abort.signal, timeout: Math.max(1, deadline - Date.now()) });
  try {
    await client.connect(transport, requestOptions());
    const session: ConnectorSession = {
      pid: transport instanceof modules.ProcessGroupTransport ? transport.pid : undefined,
      listTools: () => {
        stage.current = 'tools/list';
        return listAllTools(client, requestOptions);
      },
      callTool: async (name, args) => {
        stage.current = 'tools/call';
        return (await client.callTool({ name, arguments: args }, undefined, requestOptions())) as CallToolResult;
      },
    };
    return await work(session);
  } catch (error) {
    throw describeFailure(modules, error, stage.current, abort.signal.aborted || Date.now() >= deadline, timeoutMs, transport, launch.env);
  } finally {
    clearTimeout(timer);
    await endRemoteSession(modules, transport, killGraceMs);
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    await dispose();
    release?.();
  }
}

/** A session kept open for many calls (the MCP gateway's pool): each request has its own deadline. */
export interface OpenConnectorSession {
  listTools(timeoutMs: number): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>, options: { timeoutMs: number; onprogress?: (progress: { progress: number; total?: number; message?: string }) => void }): Promise<CallToolResult>;
  /** True once the connector went away (process exited, transport closed) or close() was called. */
  readonly closed: boolean;
  /** Called once when the session ends, whatever ended it. */
  onclose: (() => void) | undefined;
  close(): Promise<void>;
}


/** A process slot for a confined stdio connector (none for others), or a start failure when none frees up by the deadline. */
async function processSlotFor(launch: ConnectorLaunch, deadline: number): Promise<(() => void) | undefined> {
  if (launch.entry.transport !== 'stdio' || !launch.confinement) return undefined;
  try {
    return await processSlots(launch.confinement.maxProcesses).acquire(deadline);
  } catch (error) {
    if (error instanceof SlotUnavailable) throw new ConnectorFailure('start', error.message);
    throw error;
  }
}

/**
 * Starts a connector and initializes a session that stays open until close() (or the connector
 * exits). Starting holds a process slot for a stdio connector for the session's whole life, so
 * TOOLS_MAX_PROCESSES bounds pooled sessions and one-shot ones together. `cpuSeconds` is the
 * process's CPU budget over its life (the sandbox's limit); past it the process dies and the
 * session closes.
 */
export async function openConnectorSession(launch: ConnectorLaunch, options: { startTimeoutMs: number; cpuSeconds: number }): Promise<OpenConnectorSession> {
  const modules = await loadSessionModules();
  const killGraceMs = 1000;
  const deadline = Date.now() + options.startTimeoutMs;
  const release = await processSlotFor(launch, deadline);
  const { transport, dispose } = createTransport(modules, launch, killGraceMs, options.cpuSeconds);
  const client = new modules.Client(CLIENT_INFO, { capabilities: {} });
  let closed = false;
  let ending: Promise<void> | undefined;
  const end = (): Promise<void> => {
    ending ??= (async () => {
      closed = true;
      await endRemoteSession(modules, transport, killGraceMs);
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
      await dispose();
      release?.();
      session.onclose?.();
    })();
    return ending;
  };
  const session: OpenConnectorSession = {
    get closed() {
      return closed;
    },
    onclose: undefined,
    listTools: async (timeoutMs) => {
      const until = Date.now() + timeoutMs;
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        return await listAllTools(client, () => ({ signal, timeout: Math.max(1, until - Date.now()) }));
      } catch (error) {
        throw describeFailure(modules, error, 'tools/list', signal.aborted || Date.now() >= until, timeoutMs, transport, launch.env);
      }
    },
    callTool: async (name, args, call) => {
      const until = Date.now() + call.timeoutMs;
      const signal = AbortSignal.timeout(call.timeoutMs);
      try {
        return (await client.callTool({ name, arguments: args }, undefined, {
          signal,
          timeout: call.timeoutMs,
          ...(call.onprogress ? { onprogress: call.onprogress } : {}),
        })) as CallToolResult;
      } catch (error) {
        throw describeFailure(modules, error, 'tools/call', signal.aborted || Date.now() >= until, call.timeoutMs, transport, launch.env);
      }
    },
    close: end,
  };
  client.onclose = () => void end();
  try {
    const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
    await client.connect(transport, { signal, timeout: Math.max(1, deadline - Date.now()) }).catch((error: unknown) => {
      throw describeFailure(modules, error, 'initialize', signal.aborted || Date.now() >= deadline, options.startTimeoutMs, transport, launch.env);
    });
  } catch (error) {
    await end();
    throw error;
  }
  return session;
}

/** A stateful remote server keeps a session until told otherwise: say goodbye, briefly. */
async function endRemoteSession(modules: SessionModules, transport: Transport, graceMs: number): Promise<void> {
  if (!(transport instanceof modules.StreamableHTTPClientTransport) || !transport.sessionId) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    transport.terminateSession().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    }),
  ]);
  clearTimeout(timer);
}

function createTransport(
  modules: SessionModules,
  launch: ConnectorLaunch,
  killGraceMs: number,
  cpuSeconds: number,
): { transport: Transport; dispose: () => Promise<void> } {
  const { entry, env, confinement } = launch;
  const builtins: Record<string, string> = confinement ? { ORG_DATA_DIR: confinement.orgDir } : {};
  if (entry.transport === 'streamable-http') {
    const headers = Object.fromEntries(
      Object.entries(entry.headers)
        .map(([name, value]) => [name, fillPlaceholders(value, env)] as const)
        .filter(([, value]) => value !== ''),
    );
    // A URL the connection's values fill in goes only to the addresses checked for them; the
    // operator's own catalog URL (no placeholder) is trusted as written.
    const agent = confinement && placeholdersIn(entry.url).length > 0 ? pinnedAgent(confinement.pins) : undefined;
    const transport = new modules.StreamableHTTPClientTransport(new URL(fillPlaceholders(entry.url, env)), {
      // A redirect would lead to a host nobody checked.
      requestInit: { headers, ...(agent ? { redirect: 'error' as const } : {}) },
      fetch: requestFetch(agent),
    });
    return { transport, dispose: async () => agent?.close().catch(() => {}) };
  }
  const command = preinstalled({
    command: entry.command,
    args: entry.args.map((arg) => fillPlaceholders(arg, { ...env, ...builtins })),
    env: { ...fillAll(entry.env, builtins), ...env },
  });
  const confined = confinement
    ? sandboxCommand(command, { network: entry.network, memoryMb: confinement.memoryMb, cpuSeconds, ...(confinement.logger ? { logger: confinement.logger } : {}) })
    : command;
  const transport = new modules.ProcessGroupTransport({ ...confined, ...(confinement ? { cwd: confinement.orgDir } : {}), killGraceMs });
  return { transport, dispose: async () => {} };
}

function fillAll(values: Record<string, string>, builtins: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, fillPlaceholders(value, builtins)]));
}

/**
 * An HTTP agent that reaches only the addresses the confinement check accepted: its DNS answers
 * are those addresses, and a literal IP (which Node connects to without a lookup) must be one of
 * them too.
 */
function pinnedAgent(pins: Map<string, string[]>): Agent {
  const pinnedAddresses = new Set([...pins.values()].flat().map(normaliseAddress));
  const connector = buildConnector({
    lookup: (hostname, options, callback) => {
      const addresses = pins.get(hostname.toLowerCase().replace(/\.$/, ''));
      if (!addresses?.length) {
        callback(new Error(`${hostname} was not checked for this connection`), '', 4);
        return;
      }
      const list = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    },
  });
  return new Agent({
    connect: (options, callback) => {
      const host = options.hostname.replace(/^\[|\]$/g, '');
      if (net.isIP(host) && !pinnedAddresses.has(normaliseAddress(host))) {
        callback(new Error(`${host} was not checked for this connection`), null);
        return;
      }
      connector(options, callback);
    },
  });
}

async function listAllTools(client: Client, options: () => { signal: AbortSignal; timeout: number }): Promise<Tool[]> {
  const tools: Tool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, options());
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || seenCursors.has(cursor)) return tools;
    seenCursors.add(cursor);
  }
  throw new Error(`more than ${MAX_TOOL_PAGES} pages of tools`);
}

function describeFailure(
  modules: SessionModules,
  error: unknown,
  stage: SessionStage,
  timedOut: boolean,
  timeoutMs: number,
  transport: Transport,
  env: Record<string, string>,
): ConnectorFailure {
  if (error instanceof ConnectorFailure) return error;
  // connect() spawns the process first; a command that never started failed at "start".
  if (transport instanceof modules.ProcessGroupTransport && !transport.spawned) stage = 'start';
  if (timedOut) return new ConnectorFailure(stage, `timed out after ${timeoutMs} ms during ${stage}`, true);
  const reason = redact(error instanceof Error ? error.message : String(error), env);
  const prefix = stage === 'start' ? 'could not start the connector' : `${stage} failed`;
  if (!(transport instanceof modules.ProcessGroupTransport)) return new ConnectorFailure(stage, `${prefix}: ${reason}`);
  const exit = transport.exitDescription ? `; the connector exited with ${transport.exitDescription}` : '';
  return new ConnectorFailure(stage, `${prefix}: ${reason}${exit}${quoteStderr(transport.stderrTail(), env)}`);
}

function quoteStderr(stderr: string, env: Record<string, string>): string {
  const oneLine = redact(stderr, env).replace(/\s+/g, ' ').trim();
  if (!oneLine) return '';
  const tail = oneLine.length > STDERR_QUOTE_CHARS ? `...${oneLine.slice(-STDERR_QUOTE_CHARS)}` : oneLine;
  return ` (stderr: ${tail})`;
}

/** Removes every secret value from text a connector produced before it is stored or shown. */
export function redact(text: string, env: Record<string, string>): string {
  let result = text;
  const values = Object.values(env).filter((value) => value.length >= 4).sort((a, b) => b.length - a.length);
  for (const value of values) result = result.split(value).join('[redacted]');
  return result;
}
