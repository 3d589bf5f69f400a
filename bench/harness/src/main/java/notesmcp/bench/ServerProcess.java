package notesmcp.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One running server: its stdin (buffered; the caller flushes), its stdout as lines, its stderr in
 * a file (shown when something goes wrong), and a watchdog. A read never hangs the run: when no
 * reply comes for too long, the watchdog kills the server, the read sees the end of stdout, and the
 * failure says what was awaited.
 */
final class ServerProcess implements AutoCloseable {
  private static final ScheduledExecutorService WATCHDOG =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "bench watchdog");
            t.setDaemon(true);
            return t;
          });

  private final String name;
  private final Process process;
  private final Path stderr;
  private final OutputStream in;
  private final ReplyLines out;
  private volatile String killedBecause;

  /** Replies read so far; written by the one reading thread, read by the watchdog. */
  private volatile long replies;

  private boolean closed;

  private ServerProcess(String name, Process process, Path stderr) {
    this.name = name;
    this.process = process;
    this.stderr = stderr;
    this.in = new BufferedOutputStream(process.getOutputStream(), 64 * 1024);
    this.out = new ReplyLines(process.getInputStream());
  }

  /** Starts {@code command}; stderr goes to {@code stderrFile}. */
  static ServerProcess start(String name, List<String> command, Path stderrFile) {
    return start(name, command, java.util.Map.of(), stderrFile);
  }

  /** The same with these variables added to (or replacing) the environment. */
  static ServerProcess start(
      String name,
      List<String> command,
      java.util.Map<String, String> environment,
      Path stderrFile) {
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderrFile.toFile());
    Programs.environment(builder, name);
    builder.environment().putAll(environment);
    try {
      return new ServerProcess(name, builder.start(), stderrFile);
    } catch (IOException e) {
      throw new BenchFailure(name + ": could not start " + String.join(" ", command) + ": " + e);
    }
  }

  /** The server process, for its CPU time and memory (see {@link ProcFs}). */
  ProcessHandle handle() {
    return process.toHandle();
  }

  String name() {
    return name;
  }

  OutputStream stdin() {
    return in;
  }

  /** Writes and flushes one or more whole lines. */
  void send(byte[] lines) {
    try {
      in.write(lines);
      in.flush();
    } catch (IOException e) {
      throw failure("writing to its stdin failed (" + e.getMessage() + ")");
    }
  }

  /** The next reply; a closed stdout is a failure, never a quiet end. */
  Reply read(String during) {
    if (!nextLine()) {
      throw failure("its stdout ended " + during);
    }
    return Reply.parse(out.bytes(), out.length());
  }

  /** The same while waiting for the reply to call {@code id} (no message built unless it fails). */
  Reply read(long id) {
    if (!nextLine()) {
      throw failure("its stdout ended while the harness waited for the reply to call " + id);
    }
    return Reply.parse(out.bytes(), out.length());
  }

  /** The next line as text (the vault benchmark parses whole replies); a closed stdout fails. */
  String readLine(String during) {
    if (!nextLine()) {
      throw failure("its stdout ended " + during);
    }
    return new String(out.bytes(), 0, out.length(), StandardCharsets.UTF_8);
  }

  private boolean nextLine() {
    try {
      boolean line = out.next();
      if (line) {
        replies++; // not atomic, and need not be: one thread reads
      }
      return line;
    } catch (IOException e) {
      throw failure("reading its stdout failed (" + e.getMessage() + ")");
    }
  }

  /**
   * Watches a phase: when no reply has come for {@code stall} (checked twice a second), a reply is
   * lost or the server hangs; the watchdog kills it, so the blocked read ends and the failure says
   * why. Cancel the returned task when the phase is over.
   */
  ScheduledFuture<?> watch(String what, Duration stall) {
    long[] seen = {replies, System.nanoTime()};
    return WATCHDOG.scheduleAtFixedRate(
        () -> {
          long now = System.nanoTime();
          if (replies != seen[0]) {
            seen[0] = replies;
            seen[1] = now;
          } else if (now - seen[1] > stall.toNanos()) {
            killedBecause =
                "no reply for "
                    + stall.toSeconds()
                    + " s during "
                    + what
                    + ", after "
                    + replies
                    + " replies from this process";
            // The handle, not Process.destroyForcibly(): that also closes the server's stdin,
            // which waits for the lock of a write blocked on a server that stopped reading.
            process.toHandle().destroyForcibly();
            throw new IllegalStateException("stop watching"); // ends the repetition
          }
        },
        500,
        500,
        TimeUnit.MILLISECONDS);
  }

  /** A failure of this server, with what it said on stderr. */
  BenchFailure failure(String what) {
    StringBuilder message = new StringBuilder(name).append(": ").append(what);
    if (killedBecause != null) {
      message.append(" (killed by the harness: ").append(killedBecause).append(')');
    } else if (!process.isAlive()) {
      message.append(" (the server exited with code ").append(exitCode()).append(')');
    }
    message
        .append("\n--- the end of its stderr, stack frames left out (")
        .append(stderr)
        .append(") ---\n");
    message.append(stderrTail(12));
    return new BenchFailure(message.toString());
  }

  private int exitCode() {
    try {
      process.waitFor(2, TimeUnit.SECONDS);
      return process.isAlive() ? -1 : process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** The last lines of its stderr, stack frames left out: what was thrown, and why. */
  String stderrTail(int lines) {
    try {
      List<String> said = new ArrayList<>();
      for (String line : Files.readAllLines(stderr, StandardCharsets.UTF_8)) {
        String trimmed = line.trim();
        if (!trimmed.startsWith("at ") && !trimmed.matches("\\.\\.\\. \\d+ more")) {
          said.add(line);
        }
      }
      return String.join("\n", said.subList(Math.max(0, said.size() - lines), said.size()));
    } catch (IOException | RuntimeException e) {
      return "(unreadable: " + e + ")";
    }
  }

  /**
   * Closes stdin, as a host does, and waits for the server to exit by itself.
   *
   * @return null when it exited 0, else what happened (for the report's notes)
   */
  String finish() {
    if (closed) {
      return null;
    }
    closed = true;
    try {
      in.close();
    } catch (IOException e) {
      // already gone: the exit code tells
    }
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        return name + " did not exit within 10 s of its stdin closing; killed";
      }
      int code = process.exitValue();
      return code == 0 ? null : name + " exited with code " + code + " after its stdin closed";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return name + ": interrupted while waiting for it to exit";
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      process.destroyForcibly();
    }
  }
}
