package notesmcp.policy;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/**
 * The audit trail in the proposals folder, {@code DIR/audit.log} (docs/approvals.md, "The audit
 * trail"): one line of ASCII JSON per tool call (its name, the SHA-256 of its arguments as
 * received, answer or refusal) and per review decision (the OS user, the action, the proposal, the
 * outcome), each carrying in {@code prev} the SHA-256 of the line before it (its bytes with the
 * line feed; 64 zeros for the first). No line holds a note's content or a client's arguments.
 *
 * <p>Several processes append at once (a server, another server, reviews): every append runs under
 * the folder's lock ({@link ProposalDirectory#locked}), reads the last line afresh and writes its
 * own after it, so the chain stays one chain across them. A server never waits for the log: {@link
 * #record} puts the call on a bounded queue that one daemon thread drains; when the queue is full
 * the call is counted, not queued, and the next line written says how many were dropped.
 */
public final class AuditLog {
  static final String FILE = "audit.log";
  private static final String ZEROS = "0".repeat(64);
  private static final int QUEUE = 256;

  /**
   * How long an exit waits for calls not yet written (the writer may be waiting for the folder's
   * lock, held by a review or another server); what is still unwritten then is said on stderr.
   */
  private static final long EXIT_WAIT_MILLIS = 5_000;

  /** A line is far less; a longer last line (damage) is hashed from this much of its end. */
  private static final int TAIL_BYTES = 64 * 1024;

  private static final JsonFactory JSON =
      JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

  private final ProposalDirectory directory;
  private final Clock clock;
  private final BlockingQueue<String[]> queue = new ArrayBlockingQueue<>(QUEUE);
  private final AtomicLong dropped = new AtomicLong();

  // Guarded by this: calls queued and not yet written (counting the one the writer has taken),
  // whether the exit has begun and when its wait ends, whether it said what was left unwritten.
  private int unwritten;
  private boolean exiting;
  private long finishing;
  private boolean saidUnwritten;

  private final Object writing = new Object();
  private volatile Thread writer; // set once, under this

  AuditLog(ProposalDirectory directory, Clock clock) {
    this.directory = directory;
    this.clock = clock;
  }

  /**
   * Notes one tool call, without waiting: queued for the writer thread, or counted as dropped when
   * the queue is full. {@code rawArguments} is digested there and never written.
   */
  void record(String tool, String rawArguments, boolean refused, Notes.Authenticated who) {
    synchronized (this) {
      unwritten++;
    }
    if (!queue.offer(
        new String[] {
          tool,
          rawArguments == null ? "" : rawArguments,
          refused ? "refusal" : "answer",
          who == null ? null : who.name(),
          who == null ? null : who.peer()
        })) {
      dropped.incrementAndGet();
      written();
    }
    if (writer == null) {
      startWriter();
    }
  }

  private synchronized void startWriter() {
    if (writer != null) {
      return;
    }
    writer =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                drain();
              }
            },
            "notes-mcp-audit");
    writer.setDaemon(true);
    writer.start();
    // At exit (a signal's too) the writer gets a bounded moment for what is unwritten: the log is
    // never waited for while serving. A process killed outright loses at most the unwritten lines.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                new Runnable() {
                  @Override
                  public void run() {
                    finish();
                  }
                },
                "notes-mcp-audit-exit"));
  }

  private void drain() {
    while (true) {
      String[] call;
      try {
        call = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      write(call);
      written();
    }
  }

  private synchronized void written() {
    unwritten--;
    if (unwritten == 0) {
      notifyAll();
    }
  }

  /**
   * Waits until the writer has written every call recorded, at most {@link #EXIT_WAIT_MILLIS} in
   * all, and says on stderr how many it had not written by then. For the end of the process: the
   * server calls it once its input has ended, the exit hook again (a signal's exit). It never
   * writes itself, so a lock held elsewhere cannot hold the exit longer than that.
   */
  synchronized void finish() {
    if (!exiting) {
      exiting = true;
      finishing = System.nanoTime() + EXIT_WAIT_MILLIS * 1_000_000;
    }
    long left;
    while (unwritten > 0 && (left = finishing - System.nanoTime()) > 0) {
      try {
        wait(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        break;
      }
    }
    if (unwritten > 0 && !saidUnwritten) {
      saidUnwritten = true;
      System.err.println(
          "notes-mcp: "
              + unwritten
              + (unwritten == 1 ? " call was" : " calls were")
              + " not yet written to the audit log "
              + EXIT_WAIT_MILLIS / 1000
              + " s into the exit (the proposals folder's lock held elsewhere, or a slow"
              + " disk), and will not be");
    }
  }

  /** Writes one queued call, after a line for those dropped since the last write. */
  private void write(String[] call) {
    synchronized (writing) {
      try {
        long lost = dropped.getAndSet(0);
        if (lost > 0) {
          append(event("dropped", "count", Long.toString(lost)));
        }
        String digest = Proposal.sha256(call[1].getBytes(StandardCharsets.UTF_8));
        append(
            call[4] == null
                ? event("call", "tool", call[0], "arguments_sha256", digest, "outcome", call[2])
                : event(
                    "call",
                    "tool",
                    call[0],
                    "arguments_sha256",
                    digest,
                    "outcome",
                    call[2],
                    "token",
                    call[3] == null ? "(none: -auth none)" : call[3],
                    "peer",
                    call[4]));
      } catch (IOException e) {
        dropped.incrementAndGet();
        System.err.println(
            "notes-mcp: the audit log could not be written (" + FileProblem.describe(e) + ")");
      }
    }
  }

  /** Appends one review decision at once (review runs in a person's terminal, not a server). */
  void recordDecision(String action, String id, String outcome) throws IOException {
    append(
        event(
            "review",
            "user",
            System.getProperty("user.name", "?"),
            "uid",
            Long.toString(Posix.userId()),
            "action",
            action,
            "proposal_id",
            id,
            "outcome",
            outcome));
  }

  /** The members of one line but {@code prev}, names and values in turn. */
  private String[] event(String kind, String... members) {
    String[] all = new String[members.length + 4];
    all[0] = "at";
    all[1] = clock.instant().toString();
    all[2] = "event";
    all[3] = kind;
    System.arraycopy(members, 0, all, 4, members.length);
    return all;
  }

  private void append(String[] members) throws IOException {
    directory.locked(
        new Runnable() {
          @Override
          public void run() {}
        },
        new ProposalDirectory.Locked<Void>() {
          @Override
          public Void run() throws IOException {
            try (FileChannel file = open(true)) {
              // Every writer holds the folder's lock, so the end read here is the end written to.
              long end = file.size();
              String prev = lastLineSha256(file, end);
              ByteBuffer bytes = ByteBuffer.wrap(line(members, prev));
              while (bytes.hasRemaining()) {
                file.write(bytes, end + bytes.position());
              }
              file.force(false);
            }
            return null;
          }
        });
  }

  /**
   * {@code DIR/audit.log} through the folder's descriptor ({@code /proc/self/fd/N/audit.log}, so
   * the folder is the one opened at start-up, never a path looked up again), never following a link
   * at the name; created 0600 when {@code write}.
   */
  private FileChannel open(boolean write) throws IOException {
    Path path = Path.of("/proc/self/fd/" + directory.descriptor() + "/" + FILE);
    if (!write) {
      return FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }
    return FileChannel.open(
        path,
        Set.of(
            StandardOpenOption.CREATE,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
  }

  private static String lastLineSha256(FileChannel file, long size) throws IOException {
    if (size == 0) {
      return ZEROS;
    }
    int length = (int) Math.min(size, TAIL_BYTES);
    ByteBuffer tail = ByteBuffer.allocate(length);
    while (tail.hasRemaining() && file.read(tail, size - length + tail.position()) > 0) {
      // read the whole tail
    }
    byte[] bytes = tail.array();
    int end = tail.position();
    int start = end - 1; // the line feed that ends the last line
    while (start > 0 && bytes[start - 1] != '\n') {
      start--;
    }
    byte[] line = new byte[end - start];
    System.arraycopy(bytes, start, line, 0, line.length);
    return Proposal.sha256(line);
  }

  private static byte[] line(String[] members, String prev) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
      g.writeStartObject();
      for (int i = 0; i < members.length; i += 2) {
        g.writeStringProperty(members[i], members[i + 1]);
      }
      g.writeStringProperty("prev", prev);
      g.writeEndObject();
    }
    out.write('\n');
    return out.toByteArray();
  }

  /**
   * Prints the log, a line each (in the visible form the caller gives), and whether the chain is
   * intact: returns the number of the first line whose {@code prev} is not the SHA-256 of the line
   * before it, or 0 when every line's is.
   */
  int verify(PrintStream out, java.util.function.UnaryOperator<String> shown) throws IOException {
    FileChannel file;
    try {
      file = open(false);
    } catch (NoSuchFileException e) {
      out.println("(no audit log yet in " + directory.path() + ")");
      return 0;
    }
    int broken = 0;
    int number = 0;
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(
                java.nio.channels.Channels.newInputStream(file), StandardCharsets.ISO_8859_1))) {
      String expected = ZEROS;
      String line;
      while ((line = lines.readLine()) != null) {
        number++;
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.ISO_8859_1);
        String prev = prevOf(line);
        boolean ok = expected.equals(prev);
        if (!ok && broken == 0) {
          broken = number;
        }
        out.println(
            String.format("%6d %s ", number, ok ? " " : "!")
                + shown.apply(new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8)));
        expected = Proposal.sha256(bytes);
      }
    }
    return broken == 0 ? 0 : broken;
  }

  /** The {@code prev} member of a line as written by {@link #line}, or null. */
  private static String prevOf(String line) {
    String key = "\"prev\":\"";
    int at = line.lastIndexOf(key);
    if (at < 0 || at + key.length() + 64 > line.length()) {
      return null;
    }
    return line.substring(at + key.length(), at + key.length() + 64);
  }
}
