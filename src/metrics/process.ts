// The usual process_* metrics of Prometheus client libraries, read when scraped.

import { readdirSync, readFileSync } from "node:fs";

const START_SECONDS = Date.now() / 1000 - process.uptime();

export function processLines(): string[] {
  const cpu = process.cpuUsage();
  const lines = [
    "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.",
    "# TYPE process_cpu_seconds_total counter",
    `process_cpu_seconds_total ${(cpu.user + cpu.system) / 1e6}`,
    "# HELP process_resident_memory_bytes Resident memory size in bytes.",
    "# TYPE process_resident_memory_bytes gauge",
    `process_resident_memory_bytes ${process.memoryUsage().rss}`,
    "# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.",
    "# TYPE process_start_time_seconds gauge",
    `process_start_time_seconds ${START_SECONDS}`,
  ];
  // Linux only: where /proc is missing (macOS), these are left out rather than made up.
  try {
    const vm = /^VmSize:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    if (vm) lines.push("# HELP process_virtual_memory_bytes Virtual memory size in bytes.", "# TYPE process_virtual_memory_bytes gauge", `process_virtual_memory_bytes ${Number(vm) * 1024}`);
    lines.push("# HELP process_open_fds Number of open file descriptors.", "# TYPE process_open_fds gauge", `process_open_fds ${readdirSync("/proc/self/fd").length}`);
    const max = /^Max open files\s+(\d+)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1];
    if (max) lines.push("# HELP process_max_fds Maximum number of open file descriptors.", "# TYPE process_max_fds gauge", `process_max_fds ${max}`);
  } catch {
    // not Linux
  }
  return lines;
}
