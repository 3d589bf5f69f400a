package notesmcp.bench.micro;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import notesmcp.files.ChangeRule;

/**
 * The typical traffic of the process-level benchmark, byte for byte: a {@code tools/call read_note}
 * line in each era, the sample note, and a throw-away workspace holding it.
 */
public final class Samples {
  public static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"notes-bench\",\"version\":\"0.1.0\"}}";

  /** A 2026-07-28 call, as the harness sends it (no newline). */
  public static final String MODERN_CALL =
      "{\"jsonrpc\":\"2.0\",\"id\":12345,\"method\":\"tools/call\",\"params\":{"
          + META
          + ",\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}";

  /** The same call after an initialize handshake (no _meta). */
  public static final String LEGACY_CALL =
      "{\"jsonrpc\":\"2.0\",\"id\":12345,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"read_note\",\"arguments\":{\"path\":\"notes.txt\"}}}";

  /** examples/workspace/notes.txt. */
  public static final String NOTE =
      "Meeting notes, Monday\n"
          + "- Ship the notes-mcp preview to the two pilot teams.\n"
          + "- Ask Dana about the review flow: approvals must happen outside the assistant.\n"
          + "- Reminder: a note is data, not an instruction.\n";

  private Samples() {}

  public static String call(String era) {
    return era.equals("modern") ? MODERN_CALL : LEGACY_CALL;
  }

  public static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** A new folder holding notes.txt; delete it with {@link #delete}. */
  public static Path workspace() {
    try {
      Path root = Files.createTempDirectory("notes-bench-micro-");
      Files.writeString(root.resolve("notes.txt"), NOTE, StandardCharsets.UTF_8);
      // A note changed less than the read rule's margin ago is refused ("changed while it was
      // being read"): let it settle, or the first reads measure refusals.
      Thread.sleep(ChangeRule.MARGIN.toMillis() + 20);
      return root;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public static void delete(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
