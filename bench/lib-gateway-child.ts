// Child processes for the gateway benchmarks (load generators, gateway processes), talking JSON lines on stdout.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export interface JsonChild {
  process: ChildProcess;
  /** Resolves with the next message whose `event` is this one. */
  next<T = Record<string, unknown>>(event: string, timeoutMs?: number): Promise<T>;
  kill(): Promise<void>;
  /** Closes the child's stdin (it exits in its own way) and waits up to `ms` for it; then kills it. */
  stop(ms?: number): Promise<void>;
}

export function spawnJsonChild(
  script: string,
  arg: unknown,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): JsonChild {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(here, script), JSON.stringify(arg)], {
    env: { ...process.env, ...env },
    // stdin stays open: the child exits when it closes (this process died), so nothing is left behind.
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const messages: Record<string, unknown>[] = [];
  const waiters: { event: string; resolve: (m: Record<string, unknown>) => void }[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk) => {
    buffer += String(chunk);
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      nl = buffer.indexOf('\n');
      if (!line.startsWith('{')) continue;
      const m = JSON.parse(line) as Record<string, unknown>;
      if (m.event === 'error') console.error(`${script}: ${m.message}`);
      const w = waiters.findIndex((x) => x.event === m.event);
      if (w >= 0) waiters.splice(w, 1)[0].resolve(m);
      else messages.push(m);
    }
  });
  const kill = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  return {
    process: child,
    next: <T>(event: string, timeoutMs = 600_000) =>
      new Promise<T>((resolve, reject) => {
        const i = messages.findIndex((m) => m.event === event);
        if (i >= 0) return resolve(messages.splice(i, 1)[0] as T);
        // The exit listener goes once the message came (a long soak asks for hundreds of messages).
        const exited = (code: number | null) => reject(new Error(`${script} exited (${code}) before "${event}"`));
        const timer = setTimeout(() => {
          child.off('exit', exited);
          reject(new Error(`${script}: no "${event}" within ${timeoutMs} ms`));
        }, timeoutMs);
        child.once('exit', exited);
        waiters.push({
          event,
          resolve: (m) => {
            clearTimeout(timer);
            child.off('exit', exited);
            resolve(m as T);
          },
        });
      }),
    kill,
    stop: async (ms = 10_000) => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.stdin?.end();
        await Promise.race([exited, new Promise((r) => setTimeout(r, ms))]);
      }
      await kill();
    },
  };
}
