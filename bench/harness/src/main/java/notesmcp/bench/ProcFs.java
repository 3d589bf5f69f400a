package notesmcp.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a server process costs, measured from outside so every server is measured the same way
 * whatever it runs on: CPU time from the JDK ({@link ProcessHandle.Info#totalCpuDuration}: user +
 * system, all threads; on Linux the JDK reads {@code /proc/<pid>/stat}, so the resolution is one
 * clock tick), and memory from {@code /proc/<pid>/status}, which the JDK does not read. A server
 * that starts children (a launcher that forks rather than execs) is measured with them.
 */
final class ProcFs {
  private ProcFs() {}

  /** User + system CPU time of the process and its live descendants, in nanoseconds. */
  static long cpuNanos(ProcessHandle process) {
    long nanos =
        process
            .info()
            .totalCpuDuration()
            .orElseThrow(() -> new BenchFailure("no CPU time for pid " + process.pid()))
            .toNanos();
    for (ProcessHandle child : children(process)) {
      nanos += child.info().totalCpuDuration().map(Duration::toNanos).orElse(0L); // gone: 0
    }
    return nanos;
  }

  /** This JVM's own CPU time (the harness: the client side of every measurement). */
  static long selfCpuNanos() {
    return cpuNanos(ProcessHandle.current());
  }

  /**
   * A {@code kB} line of {@code /proc/<pid>/status} ({@code VmRSS}, {@code VmHWM}), in bytes,
   * summed over the process and its live descendants.
   */
  static long statusBytes(ProcessHandle process, String key) {
    long bytes = statusBytes(read(status(process)), key);
    for (ProcessHandle child : children(process)) {
      try {
        bytes += statusBytes(Files.readString(status(child), StandardCharsets.US_ASCII), key);
      } catch (IOException e) {
        // the child is gone: it holds no memory
      }
    }
    return bytes;
  }

  /** The value of a {@code kB} line of a {@code status} file's text, in bytes. */
  static long statusBytes(String status, String key) {
    for (String line : status.split("\n")) {
      if (line.startsWith(key + ":")) {
        String value = line.substring(key.length() + 1).trim();
        return Long.parseLong(value.substring(0, value.indexOf(' '))) * 1024;
      }
    }
    throw new BenchFailure("no " + key + " in a /proc status file");
  }

  /** The short names ({@code java}, {@code node}, ...) of the process and its descendants. */
  static String commands(ProcessHandle process) {
    List<String> names = new ArrayList<>();
    names.add(read(Path.of("/proc", Long.toString(process.pid()), "comm")).trim());
    for (ProcessHandle child : children(process)) {
      names.add(child.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("?"));
    }
    return String.join(" + ", names);
  }

  /** The 1, 5 and 15 minute load averages. */
  static String loadAverage() {
    String[] fields = read(Path.of("/proc/loadavg")).split(" ");
    return fields[0] + " " + fields[1] + " " + fields[2];
  }

  private static List<ProcessHandle> children(ProcessHandle process) {
    List<ProcessHandle> children = new ArrayList<>();
    process.descendants().forEach(children::add);
    return children;
  }

  private static Path status(ProcessHandle process) {
    return Path.of("/proc", Long.toString(process.pid()), "status");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new BenchFailure("cannot read " + file + " (did the process exit?): " + e);
    }
  }
}
