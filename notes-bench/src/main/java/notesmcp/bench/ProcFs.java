package notesmcp.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux says about a process, read from {@code /proc}: CPU time (user + system, all threads)
 * and memory (VmRSS now, VmHWM the peak). Measured from outside, so every server is measured the
 * same way whatever it runs on.
 */
final class ProcFs {
  /** Clock ticks per second of {@code /proc/<pid>/stat}'s utime and stime (USER_HZ). */
  static final long TICKS_PER_SECOND = ticksPerSecond();

  private ProcFs() {}

  /** utime + stime of the whole process, in nanoseconds (resolution: one clock tick). */
  static long cpuNanos(long pid) {
    String stat = read(Path.of("/proc", Long.toString(pid), "stat"));
    // The command name (field 2) may hold spaces and parentheses: count fields after its ')'.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
    return ticks * 1_000_000_000L / TICKS_PER_SECOND;
  }

  /** This JVM's own CPU time (the harness, the client side of every measurement). */
  static long selfCpuNanos() {
    return cpuNanos(ProcessHandle.current().pid());
  }

  /** A {@code kB} line of {@code /proc/<pid>/status} ({@code VmRSS}, {@code VmHWM}), in bytes. */
  static long statusBytes(long pid, String key) {
    for (String line : read(Path.of("/proc", Long.toString(pid), "status")).split("\n")) {
      if (line.startsWith(key + ":")) {
        String value = line.substring(key.length() + 1).trim();
        return Long.parseLong(value.substring(0, value.indexOf(' '))) * 1024;
      }
    }
    throw new BenchFailure("no " + key + " in /proc/" + pid + "/status");
  }

  /** The executable's short name ({@code java}, {@code node}, {@code python3...}). */
  static String command(long pid) {
    return read(Path.of("/proc", Long.toString(pid), "comm")).trim();
  }

  /** The 1, 5 and 15 minute load averages. */
  static String loadAverage() {
    String[] fields = read(Path.of("/proc/loadavg")).split(" ");
    return fields[0] + " " + fields[1] + " " + fields[2];
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new BenchFailure("cannot read " + file + " (did the process exit?): " + e);
    }
  }

  private static long ticksPerSecond() {
    try {
      Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      if (getconf.waitFor() == 0) {
        return Long.parseLong(out.trim());
      }
    } catch (IOException | NumberFormatException e) {
      // fall through: 100 is USER_HZ on every mainstream Linux build
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 100;
  }
}
