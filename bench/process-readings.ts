import { readdirSync, readFileSync } from 'node:fs';

/** What bench/connect.ts reads of the service it runs: its threads' CPU, page faults and GC pauses. */

/**
 * user and system CPU of a process's main thread and of its other threads together, in ms
 * (/proc/PID/task/TID/stat; every thread of node is named `node`, so only the main one, whose id
 * is the process's, can be told apart). The other threads are V8's compilers and concurrent GC,
 * libuv's pool and worker threads: what they take, beside the main thread, tells V8 still
 * compiling from the service's own work; system time is mostly the database's file reads.
 */
export function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const thread = task === String(pid) ? 'main thread' : 'other threads';
    for (const [kind, ticks] of [['user', fields[11]], ['system', fields[12]]] as const) {
      byName.set(`${thread} (${kind})`, (byName.get(`${thread} (${kind})`) ?? 0) + Number(ticks) * 10);
    }
  }
  return byName;
}

/** Minor page faults of a process so far (/proc/PID/stat): memory it touches for the first time, such as the database's buffers as they fill. */
export function minorFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
}

/**
 * The service's GC pauses in a stretch of its log, when it runs with `--node-flags --trace-gc`
 * (V8 writes a line a collection to stdout, which goes to the log): count, sum and longest, per
 * kind of collection; null without such lines. Pauses of the main thread, which every waiting
 * request sits through.
 */
export function gcPauses(log: string): string | null {
  const byKind = new Map<string, number[]>();
  for (const match of log.matchAll(/ ms: (Scavenge|Minor Mark-Compact|Mark-Compact(?: \(reduce\))?)\b.*?MB, ([\d.]+) \/ [\d.]+ ms/g)) {
    const kind = match[1] ?? '?';
    byKind.set(kind, [...(byKind.get(kind) ?? []), Number(match[2])]);
  }
  if (byKind.size === 0) return null;
  return [...byKind]
    .map(([kind, ms]) => `${kind} ${ms.length}× ${ms.reduce((a, b) => a + b, 0).toFixed(0)} ms (longest ${Math.max(...ms).toFixed(1)})`)
    .join(', ');
}
