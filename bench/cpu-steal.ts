import { readFileSync } from 'node:fs';

/** The machine's CPU time so far, in clock ticks: all of it, and what the hypervisor gave other guests (steal). */
function cpuTicks(): { total: number; steal: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/u).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal guest guest_nice: guest time is already inside user.
    return { total: fields.slice(0, 8).reduce((sum, value) => sum + value, 0), steal: fields[7] ?? 0 };
  } catch {
    return null;
  }
}

/**
 * Measures the share of CPU time a virtual machine's host took away while
 * the benchmarks ran: on a shared host every figure drops with it, so the
 * report says how much there was. Null off Linux.
 */
export function startStealMeter(): () => number | null {
  const before = cpuTicks();
  return () => {
    const after = cpuTicks();
    if (!before || !after || after.total === before.total) return null;
    return (after.steal - before.steal) / (after.total - before.total);
  };
}
