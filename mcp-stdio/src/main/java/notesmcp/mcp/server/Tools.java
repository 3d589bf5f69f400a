package notesmcp.mcp.server;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import notesmcp.mcp.Protocol.Implementation;
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
   * @param cancelled true once the client cancelled the request; checked before anything runs
   * @throws CancellationException if the call was cancelled before it ran
   */
  Result call(String name, String rawArguments, Implementation client, BooleanSupplier cancelled);

  /**
   * A tool definition as {@code tools/list} advertises it. The schema must not be modified. {@code
   * annotations} is the spec's {@code ToolAnnotations} object ({@code readOnlyHint} and the other
   * hints), or null for none; revision 2024-11-05 has no {@code ToolAnnotations}, so that era's
   * list leaves them out.
   */
  record Tool(String name, String description, ObjectNode inputSchema, ObjectNode annotations) {
    /** A tool without annotations. */
    public Tool(String name, String description, ObjectNode inputSchema) {
      this(name, description, inputSchema, null);
    }

    ObjectNode toJson(boolean withAnnotations) {
      ObjectNode json = JsonNodeFactory.instance.objectNode();
      json.put("name", name);
      json.put("description", description);
      json.set("inputSchema", inputSchema);
      if (annotations != null && withAnnotations) {
        json.set("annotations", annotations);
      }
      return json;
    }
  }

  /**
   * A {@code tools/call} result holding exactly one text block: the tool's answer, or with {@code
   * isError} its refusal (a tool's error is a result, not a protocol error: docs/design.md,
   * "Errors: three outcomes, plus bugs").
   */
  record Result(String text, boolean isError) {
    ObjectNode toJson() {
      ObjectNode json = JsonNodeFactory.instance.objectNode();
      ObjectNode block = json.putArray("content").addObject();
      block.put("type", "text");
      block.put("text", text);
      json.put("isError", isError);
      return json;
    }
  }
}
