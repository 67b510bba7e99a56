import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './process.ts';

/** Debian's redis-server is what .ci/run installs; tests that need it skip without it. */
export const HAVE_REDIS = spawnSync('redis-server', ['--version']).status === 0;

export interface RedisServer {
  url: string;
  port: number;
  /** The redis-server process, for benches that read its CPU time or pin it to a core. */
  pid: number;
  stop(): Promise<void>;
}

/** A throwaway redis-server on loopback, nothing saved to disk. */
export async function startRedis(port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn('redis-server', ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
