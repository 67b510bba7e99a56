/**
 * CPU accounting and CPU limits for the scale-out bench (Linux only): CPU time of processes
 * from /proc, pinning with taskset, and per-process CPU caps with cgroups (v2's cpu.max or v1's
 * cpu.cfs_quota_us), so a small machine can simulate "one core per API process".
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU milliseconds in two fields of /proc/PID/stat, counted after the command name ("self" for this process). */
function statCpuMs(pid: number | 'self', first: number, second: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return ((Number(fields[first]) + Number(fields[second])) * 1000) / TICKS_PER_SECOND;
}

/** User + system CPU milliseconds of the processes (all their threads), 0 for one that is gone. */
export function cpuMs(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += statCpuMs(pid, 11, 12); // utime, stime
    } catch {
      // gone
    }
  }
  return total;
}

/** CPU milliseconds of the children this process has waited for (cutime, cstime). */
export function reapedChildrenCpuMs(): number {
  return statCpuMs('self', 13, 14);
}

/** The whole machine's CPU time so far, in ticks, from the first line of /proc/stat. */
export interface MachineTicks {
  total: number;
  idle: number;
  /** Hardware and software interrupts: loopback TCP is mostly softirq, counted to no process. */
  interrupts: number;
  /** Time the hypervisor ran something else while this machine wanted a CPU. */
  steal: number;
}

export function machineTicks(): MachineTicks {
  const [, ...fields] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is inside user already)
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields.map(Number);
  return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle: idle + iowait, interrupts: irq + softirq, steal };
}

/** Where the machine's cores went between two readings, in cores. */
export interface MachineShare {
  idle: number;
  interrupts: number;
  steal: number;
}

export function machineShare(before: MachineTicks, after: MachineTicks, cores: number): MachineShare {
  const total = Math.max(1, after.total - before.total);
  const share = (key: keyof MachineShare) => ((after[key] - before[key]) / total) * cores;
  return { idle: share('idle'), interrupts: share('interrupts'), steal: share('steal') };
}

/** Pins the processes (every thread) to the CPUs listed as taskset reads them ("0", "0-2"); false where it cannot. */
export function pin(pids: number[], cpus: string): boolean {
  return pids.every((pid) => spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' }).status === 0);
}

export interface CpuCaps {
  /** Puts the process (every thread) in a cgroup of its own, capped at `cpus` CPUs. */
  cap(pid: number, cpus: number): void;
  /** Removes the cgroups; call after the capped processes have exited. */
  remove(): void;
}

const PERIOD_US = 100_000;

/** Per-process CPU caps, or the reason they cannot be had here (no cgroup CPU controller, not writable). */
export function cpuCaps(): CpuCaps | string {
  const v2 = '/sys/fs/cgroup';
  const v1 = '/sys/fs/cgroup/cpu';
  const tag = `rapport-bench-${randomBytes(3).toString('hex')}`;
  const made: string[] = [];
  let mode: 'v1' | 'v2';
  try {
    if (existsSync(path.join(v2, 'cgroup.controllers')) && readFileSync(path.join(v2, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('cpu')) {
      mode = 'v2';
      if (!readFileSync(path.join(v2, 'cgroup.subtree_control'), 'utf8').includes('cpu')) writeFileSync(path.join(v2, 'cgroup.subtree_control'), '+cpu');
    } else if (existsSync(path.join(v1, 'cpu.cfs_quota_us'))) {
      mode = 'v1';
    } else {
      return 'no cgroup CPU controller on this machine';
    }
    // A probe: creating a cgroup needs write access to the hierarchy (root, or a delegated one).
    const probe = path.join(mode === 'v2' ? v2 : v1, `${tag}-probe`);
    mkdirSync(probe);
    rmdirSync(probe);
  } catch (error) {
    return `cgroups are not writable here (${error instanceof Error ? error.message : String(error)})`;
  }
  const root = mode === 'v2' ? v2 : v1;
  return {
    cap(pid, cpus) {
      const dir = path.join(root, `${tag}-${made.length}`);
      mkdirSync(dir);
      made.push(dir);
      const quota = String(Math.round(cpus * PERIOD_US));
      if (mode === 'v2') {
        writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
      } else {
        writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
        writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), quota);
      }
      writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
    },
    remove() {
      for (const dir of made) {
        try {
          rmdirSync(dir);
        } catch {
          // still has a process in it: left for the operating system's cleanup
        }
      }
    },
  };
}
