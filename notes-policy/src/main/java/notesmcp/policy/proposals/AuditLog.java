package notesmcp.policy.proposals;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import notesmcp.files.FileProblem;
import notesmcp.files.Posix;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;

/**
 * The audit trail in the proposals folder, {@code DIR/audit.log} (docs/approvals.md, "The audit
 * trail"): one line of ASCII JSON per tool call (its name, the note, folder, query or proposal the
 * call named ({@link #NAMED}), the SHA-256 of its arguments as received, answer or refusal) and per
 * review decision (the OS user, the action, the proposal, the outcome), each carrying in {@code
 * prev} the SHA-256 of the line before it (its bytes with the line feed; 64 zeros for the first).
 * No line holds a note's content or any other argument.
 *
 * <p>A line cut short (a write that ended early, on a full disk) is torn: the next append first
 * ends it with a line feed, so it stands alone and the next line carries its SHA-256 as of any
 * line; {@link #verify} reports it as torn, not as a break.
 *
 * <p>The file is opened as carefully as a record: never a link, never blocking on a FIFO, only a
 * regular file of this user's, checked on the descriptor ({@link ProposalDirectory#openToAppend},
 * {@link ProposalDirectory#openToRead}).
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

  /**
   * What a call line names beside its tool: the note read or proposed, the folder listed or
   * searched, the query, the proposal asked about, as the client sent them (docs/approvals.md, "The
   * audit trail"). The tool surface, which knows its tools and their arguments, gives it; called on
   * the writer thread, off the request's way.
   */
  public interface Named {
    /** Names and values in turn, from one call's raw arguments; none when it names nothing. */
    List<String> of(String tool, String rawArguments);
  }

  /** How much of one line {@link #verify} keeps to show; a longer line is damage, shown cut. */
  private static final int SHOWN_BYTES = 64 * 1024;

  private static final JsonFactory JSON =
      JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

  /** How {@link #readable} reads a line back, within the bounds of any line this writes. */
  private static final JsonFactory READER =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(4)
                  .maxStringLength(SHOWN_BYTES)
                  .build())
          .build();

  /** How {@link #readable} writes it for a person: non-ASCII characters as themselves. */
  private static final JsonFactory READABLE = JsonFactory.builder().build();

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

  private final Named named; // null: call lines name nothing
  private final Object writing = new Object();
  private volatile Thread writer; // set once, under this

  /** A log of decisions (the review's); its call lines, if any, name nothing but their tool. */
  public AuditLog(ProposalDirectory directory, Clock clock) {
    this(directory, clock, null);
  }

  /**
   * @param named what each call line names, or null for nothing
   */
  public AuditLog(ProposalDirectory directory, Clock clock, Named named) {
    this.directory = directory;
    this.clock = clock;
    this.named = named;
  }

  /**
   * Notes one tool call, without waiting: queued for the writer thread, or counted as dropped when
   * the queue is full. {@code rawArguments} is digested there and never written.
   */
  public void record(String tool, String rawArguments, boolean refused) {
    record(tool, rawArguments, refused, null);
  }

  /**
   * As {@link #record(String, String, boolean)}, for a call its transport authenticated: the line
   * also names the credential ({@code token}, its name, never the token) and the peer.
   */
  public void record(String tool, String rawArguments, boolean refused, Authenticated who) {
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
  public synchronized void finish() {
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
        List<String> members = new ArrayList<>(List.of("tool", call[0]));
        if (named != null) {
          members.addAll(named.of(call[0], call[1]));
        }
        members.addAll(
            List.of(
                "arguments_sha256",
                Proposal.sha256(call[1].getBytes(StandardCharsets.UTF_8)),
                "outcome",
                call[2]));
        if (call[4] != null) {
          members.addAll(
              List.of("token", call[3] == null ? "(none: -auth none)" : call[3], "peer", call[4]));
        }
        append(event("call", members.toArray(new String[0])));
      } catch (IOException e) {
        dropped.incrementAndGet();
        System.err.println(
            "notes-mcp: the audit log could not be written ("
                + (e instanceof FileSystemException || e.getMessage() == null
                    ? FileProblem.describe(e)
                    : e.getMessage())
                + ")");
      }
    }
  }

  /** Appends one review decision at once (review runs in a person's terminal, not a server). */
  public void recordDecision(String action, String id, String outcome) throws IOException {
    recordDecision(action, id, outcome, List.of());
  }

  /**
   * Appends one review decision at once, with {@code face} (names and values in turn) after its
   * outcome: where the decision was made when not in a terminal ({@code "via":"page"}, the owner's
   * session and the peer: docs/review-page.md). A line without {@code via} came from {@code
   * notes-mcp review} in a terminal, as every decision line did before the page.
   */
  public void recordDecision(String action, String id, String outcome, List<String> face)
      throws IOException {
    List<String> members =
        new ArrayList<>(
            List.of(
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
    members.addAll(face);
    append(event("review", members.toArray(new String[0])));
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
            try (FileChannel file = directory.openToAppend(FILE)) {
              // Every writer holds the folder's lock, so the end read here is the end written to.
              long end = file.size();
              Tail tail = tail(file, end);
              byte[] line = line(members, tail.sha256());
              ByteBuffer bytes = ByteBuffer.allocate(line.length + (tail.torn() ? 1 : 0));
              if (tail.torn()) {
                bytes.put((byte) '\n'); // the torn line stands alone; this one carries its hash
              }
              bytes.put(line).flip();
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
   * The end of the log as an append finds it: the SHA-256 of its last line with its line feed, and
   * whether that line is torn (the file does not end with a line feed: the line feed is then
   * written before the next line, and counted in the hash).
   */
  private record Tail(String sha256, boolean torn) {}

  private static Tail tail(FileChannel file, long size) throws IOException {
    if (size == 0) {
      return new Tail(ZEROS, false);
    }
    int length = (int) Math.min(size, TAIL_BYTES);
    ByteBuffer tail = ByteBuffer.allocate(length);
    while (tail.hasRemaining() && file.read(tail, size - length + tail.position()) > 0) {
      // read the whole tail
    }
    byte[] bytes = tail.array();
    int end = tail.position();
    boolean torn = bytes[end - 1] != '\n';
    int lineEnd = torn ? end : end - 1;
    int start = lineEnd;
    while (start > 0 && bytes[start - 1] != '\n') {
      start--;
    }
    byte[] line = new byte[lineEnd - start + 1];
    System.arraycopy(bytes, start, line, 0, lineEnd - start);
    line[line.length - 1] = '\n';
    return new Tail(Proposal.sha256(line), torn);
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
   * What {@link #verify} found: the number of the first line whose {@code prev} is not the SHA-256
   * of the line before it (0 when every line's is), and the numbers of the torn lines (a line that
   * is not a whole record: it does not end with {@code "}} and a line feed).
   */
  public record Check(int broken, List<Integer> torn) {
    /** Whether the chain holds: exit 0 of {@code review --log}. */
    public boolean intact() {
      return broken == 0;
    }

    /** The chain's state in words, as both faces of the review say it. */
    public String verdict() {
      if (broken == 0) {
        return "the audit log's chain is intact";
      }
      return "the audit log's chain breaks at line "
          + broken
          + " (marked !): it does not carry the SHA-256 of the line before it, so a line was"
          + " changed, removed or inserted there";
    }

    /** The torn lines in words, or null when there are none. */
    public String tornLines() {
      if (torn.isEmpty()) {
        return null;
      }
      return "the audit log has "
          + (torn.size() == 1 ? "a torn line, " : "torn lines, ")
          + numbers(torn)
          + " (marked ~): a line cut short, as a write on a full disk leaves it; the call or"
          + " decision it recorded is lost as a line, and the line after it carries its SHA-256"
          + " as after any line";
    }

    private static String numbers(List<Integer> lines) {
      StringBuilder text = new StringBuilder("line");
      if (lines.size() > 1) {
        text.append('s');
      }
      for (int i = 0; i < lines.size() && i < 10; i++) {
        text.append(i == 0 ? " " : ", ").append(lines.get(i));
      }
      if (lines.size() > 10) {
        text.append(" and ").append(lines.size() - 10).append(" more");
      }
      return text.toString();
    }
  }

  /**
   * How much of one line {@link #verify} shows in the visible form: every line the program writes
   * whole (its client-sent values are cut at 256 characters each when written), a damaged one cut.
   */
  public static final int SHOWN_CHARS = 4000;

  /**
   * Prints the log, a line each (its members' non-ASCII characters shown as themselves, {@link
   * #readable}, then in the visible form the caller gives), marked {@code !} where the chain breaks
   * and {@code ~} where a line is torn, and says whether the chain is intact. A torn line is not a
   * break: its own {@code prev} is checked when it holds a whole one, and the line after it must
   * carry its SHA-256 as after any line. Reads the file in bounded memory, whatever its lines.
   *
   * @throws notesmcp.files.Folder.NotRegularFile if {@code audit.log} is a link, a folder, a FIFO,
   *     a socket or a device: it is not read
   */
  public Check verify(PrintStream out, java.util.function.UnaryOperator<String> shown)
      throws IOException {
    FileChannel file;
    try {
      file = directory.openToRead(FILE);
    } catch (NoSuchFileException e) {
      out.println("(no audit log yet in " + directory.path() + ")");
      return new Check(0, List.of());
    }
    int broken = 0;
    List<Integer> torn = new ArrayList<>();
    int number = 0;
    try (InputStream in = new BufferedInputStream(Channels.newInputStream(file), 64 * 1024)) {
      String expected = ZEROS;
      MessageDigest digest = sha256();
      ByteArrayOutputStream kept = new ByteArrayOutputStream(512);
      byte[] last = new byte[LAST_BYTES];
      long length = 0;
      int b;
      boolean more = true;
      while (more) {
        b = in.read();
        if (b < 0) {
          more = false;
          if (length == 0) {
            break;
          }
        } else if (b != '\n') {
          digest.update((byte) b);
          if (kept.size() < SHOWN_BYTES) {
            kept.write(b);
          }
          last[(int) (length % LAST_BYTES)] = (byte) b;
          length++;
          continue;
        }
        // A line, ended by a line feed or by the end of the file.
        number++;
        digest.update((byte) '\n');
        String end = lastOf(last, length);
        String prev = prevOf(end);
        boolean whole = b == '\n' && end.endsWith("\"}");
        boolean ok = prev != null && expected.equals(prev);
        char mark = ' ';
        if (!whole && (prev == null || ok)) {
          torn.add(number);
          mark = '~';
        } else if (!ok) {
          if (broken == 0) {
            broken = number;
          }
          mark = '!';
        }
        String text = new String(kept.toByteArray(), StandardCharsets.UTF_8);
        out.println(
            String.format("%6d %s ", number, mark)
                + shown.apply(readable(text))
                + (length > SHOWN_BYTES ? " (a line of " + length + " bytes, shown cut)" : ""));
        expected = HexFormat.of().formatHex(digest.digest());
        kept.reset();
        length = 0;
      }
    }
    return new Check(broken, List.copyOf(torn));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every Java platform has SHA-256", e);
    }
  }

  /** How much of each line's end {@link #verify} keeps: its {@code prev} and closing quote. */
  private static final int LAST_BYTES = 128;

  /** The last (at most {@link #LAST_BYTES}) bytes of a line of {@code length}, in order. */
  private static String lastOf(byte[] ring, long length) {
    int n = (int) Math.min(length, LAST_BYTES);
    byte[] end = new byte[n];
    for (int i = 0; i < n; i++) {
      end[i] = ring[(int) ((length - n + i) % LAST_BYTES)];
    }
    return new String(end, StandardCharsets.ISO_8859_1);
  }

  /**
   * A line as a person reads it: a record's members with the non-ASCII characters the writer
   * escaped ({@code \\u00e9}) shown as themselves, members and their order as written; any other
   * line (torn, damaged) as it is. What the caller's visible form then does with a character that
   * could drive a terminal or hide text is unchanged: the values may be a client's hostile strings.
   */
  static String readable(String line) {
    if (line.indexOf("\\u") < 0) {
      return line;
    }
    StringWriter out = new StringWriter(line.length());
    try (JsonParser parser = READER.createParser(ObjectReadContext.empty(), line);
        JsonGenerator g = READABLE.createGenerator(ObjectWriteContext.empty(), out)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return line;
      }
      g.copyCurrentStructure(parser);
      if (parser.nextToken() != null) {
        return line;
      }
    } catch (JacksonException e) {
      return line;
    }
    return out.toString();
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
