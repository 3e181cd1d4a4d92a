// CPU time a process has used so far, every thread included, read from /proc (Linux). Throughput on a
// small shared machine swings with whatever else runs there; the CPU a proxy spends per request is
// steadier, and it is what decides the ratio when the proxy, the load generator and the upstream
// share the cores. Elsewhere (no /proc) the column reads "-".
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5_000 }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Milliseconds of CPU (user + system) used by `pid` so far, or null where /proc cannot tell. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, hence the last ')'): state is the first,
    // utime the 12th and stime the 13th (proc(5) fields 14 and 15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / clockTicks() : null;
  } catch {
    return null;
  }
}

export interface MachineCpu {
  /** Clock ticks of all cores so far: busy (user, nice, system, irq, softirq, steal), waiting on I/O, in all. */
  busy: number;
  iowait: number;
  total: number;
}

/** The machine's CPU time so far, from the first line of /proc/stat (Linux); null elsewhere. */
export function machineCpu(): MachineCpu | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
    return Number.isFinite(busy) ? { busy, iowait: iowait!, total: busy + idle! + iowait! } : null;
  } catch {
    return null;
  }
}

/** The share of the machine's CPU time (all cores) that was busy, and waiting on I/O, between two readings. */
export function machineShares(before: MachineCpu | null, after: MachineCpu | null): { busy: number; iowait: number } | null {
  if (before === null || after === null || after.total <= before.total) return null;
  const total = after.total - before.total;
  return { busy: (after.busy - before.busy) / total, iowait: (after.iowait - before.iowait) / total };
}

/** This process's main thread (the proxy's, in a benchmark that runs the desk in-process): ms run on a core and ms waited for one, from Linux's schedstat; null elsewhere. */
export function mainThreadSched(): { cpuMs: number; waitMs: number } | null {
  try {
    const [cpu, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return { cpuMs: cpu! / 1e6, waitMs: wait! / 1e6 };
  } catch {
    return null;
  }
}
