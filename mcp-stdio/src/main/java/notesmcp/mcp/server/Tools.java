package notesmcp.mcp.server;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import notesmcp.mcp.Protocol;
import notesmcp.mcp.Protocol.Implementation;
import notesmcp.text.JsonInput.JsonString;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tools a server offers: the seam between this protocol layer, which knows no notes, and the
 * program that adapts a policy to it. Called by whichever server thread answers a request, by
 * several at once when calls are slow (see CONCURRENCY.md): an implementation serializes its own
 * state.
 */
public interface Tools {
  /** The tools, in a fixed order. */
  List<Tool> list();

  /**
   * Calls {@code name}, one of {@link #list()}: the dispatcher checks the name, once, before it
   * calls.
   *
   * @param rawArguments the arguments object exactly as received, or null when omitted
   * @param client the name and version the client reported for itself, or null when it reported
   *     none: {@code _meta["io.modelcontextprotocol/clientInfo"]} of a 2026-07-28 request, or the
   *     {@code clientInfo} of a legacy session's {@code initialize}. Self-reported, never verified:
   *     fit for a record or a log, never for a decision.
   * @param caller who the transport authenticated, or null (stdio): verified, unlike {@code
   *     client}, so fit for decisions and records
   * @param cancelled true once the client cancelled the request; checked before anything runs
   * @throws CancellationException if the call was cancelled before it ran
   */
  Result call(
      String name,
      String rawArguments,
      Implementation client,
      Caller caller,
      BooleanSupplier cancelled);

  /**
   * A tool definition as {@code tools/list} advertises it. The schema must not be modified. {@code
   * title} is the name a person sees, or null; {@code annotations} is the spec's {@code
   * ToolAnnotations} object ({@code readOnlyHint} and the other hints), or null for none. Each era
   * gets what its revision has: 2024-11-05 neither (it has no {@code ToolAnnotations}), 2025-03-26
   * the title inside the annotations only, later revisions both.
   */
  record Tool(
      String name,
      String title,
      String description,
      ObjectNode inputSchema,
      ObjectNode annotations) {
    /** A tool without a title or annotations. */
    public Tool(String name, String description, ObjectNode inputSchema) {
      this(name, null, description, inputSchema, null);
    }

    /** A tool without a title. */
    public Tool(String name, String description, ObjectNode inputSchema, ObjectNode annotations) {
      this(name, null, description, inputSchema, annotations);
    }

    /** Whether the tool does not modify its environment: {@code annotations.readOnlyHint} true. */
    public boolean isReadOnly() {
      JsonNode hint = annotations == null ? null : annotations.get("readOnlyHint");
      return hint != null && hint.isBoolean() && hint.booleanValue();
    }

    ObjectNode toJson(String version) {
      ObjectNode json = JsonNodeFactory.instance.objectNode();
      json.put("name", name);
      if (title != null && Protocol.hasTitles(version)) {
        json.put("title", title);
      }
      json.put("description", description);
      json.set("inputSchema", inputSchema);
      if (Protocol.hasToolAnnotations(version) && (annotations != null || title != null)) {
        ObjectNode hints =
            annotations == null ? JsonNodeFactory.instance.objectNode() : annotations.deepCopy();
        if (title != null) {
          hints.put("title", title);
        }
        json.set("annotations", hints);
      }
      return json;
    }
  }

  /**
   * A {@code tools/call} result holding exactly one text block: the tool's answer, or with {@code
   * isError} its refusal (a tool's error is a result, not a protocol error: docs/design.md,
   * "Errors: three outcomes, plus bugs"). The text is given as a string, or as the escaped bytes of
   * its JSON string, which go onto the protocol line as they are (docs/design.md, "A read's
   * bytes").
   */
  final class Result {
    private final String text;
    private final JsonString escaped;
    private final boolean isError;

    public Result(String text, boolean isError) {
      this.text = Objects.requireNonNull(text, "text");
      this.escaped = null;
      this.isError = isError;
    }

    /** A result whose text is {@code escaped}: valid UTF-8, escaped as a JSON string's content. */
    public Result(JsonString escaped, boolean isError) {
      this.text = null;
      this.escaped = Objects.requireNonNull(escaped, "escaped");
      this.isError = isError;
    }

    /** The text a client sees. */
    public String text() {
      if (text != null) {
        return text;
      }
      byte[] quoted = new byte[escaped.length() + 2];
      quoted[0] = '"';
      System.arraycopy(escaped.bytes(), 0, quoted, 1, escaped.length());
      quoted[quoted.length - 1] = '"';
      return JsonMapper.shared().readTree(quoted).stringValue();
    }

    public boolean isError() {
      return isError;
    }

    ObjectNode toJson() {
      ObjectNode json = JsonNodeFactory.instance.objectNode();
      ObjectNode block = json.putArray("content").addObject();
      block.put("type", "text");
      if (text != null) {
        block.put("text", text);
      } else {
        block.putPOJO("text", escaped);
      }
      json.put("isError", isError);
      return json;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Result
          && ((Result) other).isError == isError
          && ((Result) other).text().equals(text());
    }

    @Override
    public int hashCode() {
      return text().hashCode() * 31 + Boolean.hashCode(isError);
    }

    @Override
    public String toString() {
      return "Result[text=" + text() + ", isError=" + isError + "]";
    }
  }
}
