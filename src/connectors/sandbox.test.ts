import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ProcessSlots, sandboxCommand, sandboxTools, SlotUnavailable } from './sandbox.js';

describe('ProcessSlots (TOOLS_MAX_PROCESSES)', () => {
  it('runs at most `limit` at once, hands a freed slot to the oldest waiter, and never lets a newcomer overtake it', async () => {
    const slots = new ProcessSlots(2);
    const first = await slots.acquire(Date.now() + 1000);
    const second = await slots.acquire(Date.now() + 1000);
    const order: string[] = [];
    const waiting = slots.acquire(Date.now() + 1000).then((release) => {
      order.push('waiter');
      return release;
    });
    first();
    const newcomer = slots.acquire(Date.now() + 1000).then((release) => {
      order.push('newcomer');
      return release;
    });
    (await waiting)();
    second();
    (await newcomer)();
    expect(order).toEqual(['waiter', 'newcomer']);
    expect(slots.inUse).toBe(0);
  });

  it('fails clearly at the deadline, and at once when the queue is full', async () => {
    const slots = new ProcessSlots(1);
    const held = await slots.acquire(Date.now() + 1000);
    await expect(slots.acquire(Date.now() + 20)).rejects.toThrow(/TOOLS_MAX_PROCESSES=1/);
    const queued = [1, 2, 3, 4].map(() => slots.acquire(Date.now() + 5000));
    await expect(slots.acquire(Date.now() + 5000)).rejects.toBeInstanceOf(SlotUnavailable);
    held();
    for (const next of queued) (await next)();
    expect(slots.inUse).toBe(0);
  });
});

describe('sandboxCommand', () => {
  const target = { command: 'node', args: ['server.js'], env: { PATH: process.env.PATH ?? '' } };

  it('caps the V8 heap of node commands instead of their address space', () => {
    const command = sandboxCommand(target, { network: 'egress', memoryMb: 256, cpuSeconds: 10 });
    expect(command.env.NODE_OPTIONS).toBe('--max-old-space-size=256');
    expect(command.args).not.toContainEqual(expect.stringMatching(/^--as=/));
    if (sandboxTools().prlimit) expect(command).toMatchObject({ command: 'prlimit', args: ['--cpu=10', '--', 'node', 'server.js'] });
  });

  it('puts a network: none connector in its own network namespace, with an address-space limit for non-node commands', () => {
    const command = sandboxCommand({ ...target, command: 'sh' }, { network: 'none', memoryMb: 64, cpuSeconds: 5 });
    if (!sandboxTools().unshare) return;
    expect(command.command).toBe('unshare');
    expect(command.args.slice(0, 2)).toEqual(['-rn', '--']);
    if (sandboxTools().prlimit) expect(command.args).toContain(`--as=${64 * 1024 * 1024}`);
  });

  it('leaves a command that does not exist unwrapped, so it fails at start', () => {
    expect(sandboxCommand({ ...target, command: '/nonexistent/server' }, { network: 'none', memoryMb: 64, cpuSeconds: 5 }).command).toBe('/nonexistent/server');
  });
});

describe('limits the kernel enforces', () => {
  it('the confined process really has the address-space and CPU limits and no network interface up', () => {
    const tools = sandboxTools();
    if (!tools.prlimit || !tools.unshare) return; // not Linux with prlimit and user namespaces: nothing to check
    const command = sandboxCommand(
      { command: 'sh', args: ['-c', 'cat /proc/self/limits; cat /proc/net/route | wc -l'], env: { PATH: process.env.PATH ?? '' } },
      { network: 'none', memoryMb: 300, cpuSeconds: 7 },
    );
    const result = spawnSync(command.command, command.args, { env: command.env, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`Max address space\\s+${300 * 1024 * 1024}\\s+${300 * 1024 * 1024}`));
    expect(result.stdout).toMatch(/Max cpu time\s+7\s+7/);
    // At most the header line of the routing table: no route, so no interface is up.
    expect(Number(result.stdout.trim().split('\n').pop())).toBeLessThanOrEqual(1);
  });
});
