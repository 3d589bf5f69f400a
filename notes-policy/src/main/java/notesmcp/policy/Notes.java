package notesmcp.policy;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The three note tools, {@code list_notes}, {@code read_note} and {@code propose_note}, with every
 * refusal of CONTRACT §3, behind one entry point: {@link #execute}.
 *
 * <p>Lock rule: one lock, this object's monitor, is held for the whole of each call, from the
 * cancellation check through the budget, the file access and the proposal. Notes are at most a few
 * KiB, so a call holds it for microseconds, and two proposals can never race. Any thread may call;
 * nothing else is shared.
 *
 * <p>This view can list, read and propose. It cannot approve or write a note: nothing reachable
 * from a tool call can.
 */
public final class Notes {
  public static final String LIST_NOTES = "list_notes";
  public static final String READ_NOTE = "read_note";
  public static final String PROPOSE_NOTE = "propose_note";

  private static final JsonFactory JSON = new JsonFactory();

  private final Policy policy;
  private final Workspace workspace;
  private final Clock clock;
  private final List<ToolDefinition> tools;

  // Guarded by this.
  private int calls;
  private Proposal pending;

  public Notes(Policy policy, Workspace workspace, Clock clock) {
    this.policy = policy;
    this.workspace = workspace;
    this.clock = clock;
    this.tools = ToolSchemas.of(policy);
  }

  /** The tools this policy offers, in a fixed order, with schemas generated from the policy. */
  public List<ToolDefinition> tools() {
    return tools;
  }

  /** Whether {@code name} is one of {@link #tools()}. */
  public boolean has(String name) {
    for (ToolDefinition tool : tools) {
      if (tool.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** The proposal waiting for approval, if any (for the server's log, never for a client). */
  public synchronized Proposal pending() {
    return pending;
  }

  /**
   * Runs one tool call.
   *
   * @param tool one of {@link #tools()}
   * @param rawArguments the arguments object exactly as received, or {@code null} when omitted
   * @param cancelled checked under the lock before anything runs or counts
   * @throws CancellationException if {@code cancelled} was already true: nothing ran or counted
   * @throws IllegalArgumentException if {@code tool} is not one of {@link #tools()}
   */
  public synchronized Outcome execute(String tool, String rawArguments, BooleanSupplier cancelled) {
    if (!has(tool)) {
      throw new IllegalArgumentException("unknown tool " + Quote.of(tool));
    }
    if (cancelled.getAsBoolean()) {
      throw new CancellationException("cancelled before " + tool + " ran");
    }
    if (calls >= policy.maxCalls()) {
      return new Outcome.Refusal(
          "call budget spent: this server process dispatches at most "
              + policy.maxCalls()
              + " tool calls; start a new server process to continue");
    }
    calls++;
    try {
      Arguments arguments = Arguments.decode(rawArguments);
      switch (tool) {
        case LIST_NOTES:
          return list(arguments);
        case READ_NOTE:
          return read(arguments);
        case PROPOSE_NOTE:
          return propose(arguments);
        default:
          throw new AssertionError(tool);
      }
    } catch (Arguments.Rejected rejected) {
      return new Outcome.Refusal(rejected.getMessage());
    }
  }

  private Outcome list(Arguments arguments) throws Arguments.Rejected {
    arguments.allowOnly(LIST_NOTES, Set.of());
    List<String> present = new ArrayList<>();
    for (NoteName name : policy.readable()) {
      if (workspace.isRegularFile(name)) {
        present.add(name.value());
      }
    }
    return new Outcome.Answer(
        json(
            g -> {
              g.writeStartObject();
              g.writeName("notes");
              g.writeStartArray();
              for (String name : present) {
                g.writeString(name);
              }
              g.writeEndArray();
              g.writeEndObject();
            }));
  }

  private Outcome read(Arguments arguments) throws Arguments.Rejected {
    arguments.allowOnly(READ_NOTE, Set.of("path"));
    String path = arguments.string("path");
    NoteName name =
        policy.readableNamed(path).orElseThrow(() -> notAllowed(path, policy.readable()));
    Workspace.Read read = workspace.read(name, policy.maxNoteBytes());
    if (read instanceof Workspace.Unreadable) {
      return new Outcome.Refusal(((Workspace.Unreadable) read).reason());
    }
    String content = ((Workspace.Text) read).content();
    return new Outcome.Answer(
        json(
            g -> {
              g.writeStartObject();
              g.writeStringProperty("path", name.value());
              g.writeStringProperty("content", content);
              g.writeEndObject();
            }));
  }

  private Outcome propose(Arguments arguments) throws Arguments.Rejected {
    arguments.allowOnly(PROPOSE_NOTE, Set.of("path", "content"));
    String path = arguments.string("path");
    String content = arguments.string("content");
    NoteName name =
        policy.proposableNamed(path).orElseThrow(() -> notAllowed(path, policy.proposable()));
    String problem = contentProblem(content);
    if (problem != null) {
      return new Outcome.Refusal(problem);
    }
    if (pending != null) {
      return new Outcome.Refusal(
          "a proposal is already pending ("
              + pending.id()
              + " for "
              + pending.path()
              + "); this server process holds at most one pending proposal");
    }
    if (workspace.isOccupied(name)) {
      return new Outcome.Refusal(
          name + " already exists; a proposal may only create a new note," + " never replace one");
    }
    pending = new Proposal(UUID.randomUUID().toString(), name, content, clock.instant());
    String id = pending.id();
    return new Outcome.Answer(
        json(
            g -> {
              g.writeStartObject();
              g.writeStringProperty("status", "pending_approval");
              g.writeStringProperty("proposal_id", id);
              g.writeStringProperty("path", name.value());
              g.writeEndObject();
            }));
  }

  /** Why {@code content} may not be proposed, or {@code null}: checked on its UTF-8 bytes. */
  private String contentProblem(String content) {
    for (int i = 0; i < content.length(); i++) {
      char c = content.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < content.length()
          && Character.isLowSurrogate(content.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return "content is not valid UTF-8: unpaired surrogate \\u"
            + String.format("%04x", (int) c)
            + " at character "
            + i;
      }
    }
    int bytes = content.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > policy.maxNoteBytes()) {
      return "content is "
          + bytes
          + " bytes of UTF-8; the limit is "
          + policy.maxNoteBytes()
          + " bytes";
    }
    return null;
  }

  private static Arguments.Rejected notAllowed(String path, List<NoteName> allowed) {
    List<String> names = new ArrayList<>();
    for (NoteName name : allowed) {
      names.add(name.value());
    }
    return new Arguments.Rejected(
        "path "
            + Quote.of(path)
            + " is not allowed: it must be exactly"
            + " one of "
            + String.join(", ", names));
  }

  private interface Body {
    void write(JsonGenerator generator);
  }

  private static String json(Body body) {
    StringWriter out = new StringWriter(128);
    try (JsonGenerator generator = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
      body.write(generator);
    }
    return out.toString();
  }
}
