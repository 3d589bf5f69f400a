package notesmcp.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where and on what a run happened: numbers without the machine, the runtimes and the load beside
 * them cannot be compared with anything.
 */
final class Machine {
  final ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
  final String uname = Programs.output(List.of("uname", "-a")).trim();
  final String nproc = Programs.output(List.of("nproc")).trim();
  final String cpu = firstValue(Path.of("/proc/cpuinfo"), "model name");
  final String memory = firstValue(Path.of("/proc/meminfo"), "MemTotal");
  final String java = firstLines(Programs.output(List.of(Programs.java(), "-version")), 3);
  final String node = Programs.output(List.of("node", "--version")).trim();
  final String python = Programs.output(List.of(Programs.python(), "--version")).trim();
  final String loadAtStart = ProcFs.loadAverage();
  final String commit;
  final String startUpCache;
  String loadAtEnd;

  Machine(Path repo) {
    String head =
        Programs.output(List.of("git", "-C", repo.toString(), "rev-parse", "--short=12", "HEAD"))
            .trim();
    String dirty =
        Programs.output(
                List.of(
                    "git", "-C", repo.toString(), "status", "--porcelain", "--untracked-files=no"))
            .trim();
    this.commit = head + (dirty.isEmpty() ? "" : " (with uncommitted changes)");
    this.startUpCache = startUpCache(repo);
  }

  String stamp() {
    return started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmmss'Z'"));
  }

  void end() {
    loadAtEnd = ProcFs.loadAverage();
  }

  /** What the launcher will find: its start-up cache files (CDS .jsa on 17-24, AOT on 25+). */
  private static String startUpCache(Path repo) {
    Path caches = repo.resolve("notes-app/target/jvm-cache");
    if (!Files.isDirectory(caches)) {
      return "none yet (the launcher makes one on first use)";
    }
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(caches, 2)) {
      files
          .filter(Files::isRegularFile)
          .map(Path::getFileName)
          .map(Path::toString)
          .filter(n -> n.endsWith(".jsa") || n.endsWith(".aot"))
          .forEach(found::add);
    } catch (IOException e) {
      return "unreadable (" + e.getMessage() + ")";
    }
    return found.isEmpty() ? "none" : String.join(", ", found);
  }

  private static String firstValue(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.startsWith(key)) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux, or not readable: say so below
    }
    return "?";
  }

  private static String firstLines(String text, int count) {
    String[] lines = text.trim().split("\n");
    return String.join(" / ", List.of(lines).subList(0, Math.min(count, lines.length)));
  }
}
