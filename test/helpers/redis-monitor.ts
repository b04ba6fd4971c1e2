// A MONITOR connection for tests that count the commands one step sends, on its own socket.
// ioredis's monitor() enters monitoring mode one microtask after it handles MONITOR's OK: when
// another client's command is echoed in the same packet as that OK (on a busy server nearly every
// time; the rest of the suite shares this Redis), ioredis takes the echo for the reply to a command
// it never sent and fails the start ("Command queue state error").
import { EventEmitter, once } from 'node:events';
import net from 'node:net';
import tls from 'node:tls';
import type { Redis } from 'ioredis';

export interface RedisMonitor {
  /** Each command the server runs after MONITOR was accepted: its time and its arguments. */
  on(event: 'monitor', listener: (time: string, args: string[]) => void): this;
  disconnect(): void;
}

const encode = (args: string[]) => `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;

/** `1795659708.853995 [0 127.0.0.1:34158] "evalsha" "ab" "2"`: the time, then the quoted arguments. */
function parseEcho(line: string): { time: string; args: string[] } {
  const quoted = line.slice(line.indexOf('"') + 1, -1);
  return { time: line.slice(0, line.indexOf(' ')), args: quoted.split('" "').map((arg) => arg.replace(/\\"/g, '"')) };
}

/** Connects where `redis` does (host, port, credentials, TLS) and resolves once MONITOR is on. */
export async function startMonitor(redis: Redis): Promise<RedisMonitor> {
  const { host = '127.0.0.1', port = 6379, username, password, tls: tlsOptions } = redis.options;
  const socket = tlsOptions ? tls.connect({ host, port, ...tlsOptions }) : net.connect({ host, port });
  await once(socket, tlsOptions ? 'secureConnect' : 'connect');
  const monitor = new EventEmitter() as EventEmitter & RedisMonitor;
  monitor.disconnect = () => socket.destroy();
  let okToGo = password ? 2 : 1; // AUTH's OK, then MONITOR's
  const accepted = new Promise<void>((resolve, reject) => {
    let pending = '';
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let end: number;
      while ((end = pending.indexOf('\r\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (line.startsWith('-')) reject(new Error(`Redis refused MONITOR: ${line.slice(1)}`));
        else if (okToGo > 0 && line === '+OK') {
          okToGo -= 1;
          if (okToGo === 0) resolve();
        } else if (okToGo === 0 && line.startsWith('+')) {
          const { time, args } = parseEcho(line.slice(1));
          monitor.emit('monitor', time, args);
        }
      }
    });
  });
  if (password) socket.write(encode(username ? ['AUTH', username, password] : ['AUTH', password]));
  socket.write(encode(['MONITOR']));
  try {
    await accepted;
  } catch (error) {
    socket.destroy();
    throw error;
  }
  return monitor;
}
