package notesmcp.mcp.server;

import java.util.ArrayList;
import java.util.List;
import notesmcp.jsonrpc.ErrorCodes;
import notesmcp.jsonrpc.Message.ErrorObject;
import notesmcp.jsonrpc.Message.Request;
import notesmcp.jsonrpc.RpcException;
import notesmcp.mcp.Protocol;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The resource methods of both eras, each from its checked params to its result: {@code
 * resources/list}, {@code resources/templates/list}, {@code resources/read}, {@code
 * completion/complete}, the legacy {@code resources/subscribe} and {@code resources/unsubscribe},
 * and 2026-07-28's {@code subscriptions/listen}. The {@link Dispatcher} decides the era and routes
 * here; what a URI names and holds is the program's ({@link Resources}), and who is told of changes
 * is {@link Subscriptions}'.
 */
final class ResourceMethods {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * 2025-11-25's code for a resource that does not exist (server/resources, "Error Handling");
   * 2026-07-28 answers {@code -32602} instead, and asks clients to accept this one too.
   */
  static final int RESOURCE_NOT_FOUND = -32002;

  private final Resources resources;
  private final Subscriptions subscriptions;

  ResourceMethods(Resources resources, Subscriptions subscriptions) {
    this.resources = resources;
    this.subscriptions = subscriptions;
  }

  /** A legacy session that looks at resources is told when their list changes from then on. */
  private void usesResources(boolean modern, Session session) {
    if (!modern) {
      subscriptions.tellLegacyOfListChanges(session);
    }
  }

  ObjectNode list(JsonNode params, boolean modern, String version, Session session)
      throws RpcException {
    usesResources(modern, session);
    String cursor = optionalString(params, "cursor");
    Resources.Page page;
    try {
      page = resources.list(cursor);
    } catch (Resources.Refused refused) {
      throw ProtocolErrors.invalidParams(refused.getMessage());
    }
    ObjectNode result = NODES.objectNode();
    ArrayNode list = result.putArray("resources");
    boolean titles = Protocol.hasTitles(version);
    for (Resources.Resource resource : page.resources()) {
      ObjectNode json = list.addObject();
      json.put("uri", resource.uri());
      json.put("name", resource.name());
      if (titles && resource.title() != null) {
        json.put("title", resource.title());
      }
      json.put("mimeType", resource.mimeType());
    }
    if (page.nextCursor() != null) {
      result.put("nextCursor", page.nextCursor());
    }
    return result;
  }

  ObjectNode templates(JsonNode params, boolean modern, String version, Session session)
      throws RpcException {
    usesResources(modern, session);
    if (optionalString(params, "cursor") != null) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: unknown cursor; this server lists every template on one page");
    }
    ObjectNode result = NODES.objectNode();
    ArrayNode list = result.putArray("resourceTemplates");
    boolean titles = Protocol.hasTitles(version);
    for (Resources.Template template : resources.templates()) {
      ObjectNode json = list.addObject();
      json.put("uriTemplate", template.uriTemplate());
      json.put("name", template.name());
      if (titles && template.title() != null) {
        json.put("title", template.title());
      }
      json.put("description", template.description());
      json.put("mimeType", template.mimeType());
    }
    return result;
  }

  /**
   * A refused read is an error with the program's own words: {@code -32602} in 2026-07-28, whose
   * resources page names that code for a resource that does not exist; in the legacy era {@code
   * -32002} for a URI that names no readable resource (2025-11-25's "Resource not found") and
   * {@code -32602} for one that cannot be read now (too long, changed while read). Both carry the
   * URI as {@code data.uri}.
   */
  ObjectNode read(
      JsonNode params, boolean modern, Exchange exchange, Protocol.Implementation client)
      throws RpcException {
    usesResources(modern, exchange.session());
    String uri = uriOf(params);
    Resources.Contents contents;
    try {
      contents = resources.read(uri, client, exchange.caller(), exchange);
    } catch (Resources.Refused refused) {
      ObjectNode data = NODES.objectNode().put("uri", uri);
      int code = !modern && refused.notFound() ? RESOURCE_NOT_FOUND : ErrorCodes.INVALID_PARAMS;
      throw new RpcException(new ErrorObject(code, refused.getMessage(), data));
    }
    ObjectNode result = NODES.objectNode();
    ObjectNode json = result.putArray("contents").addObject();
    json.put("uri", contents.uri());
    json.put("mimeType", contents.mimeType());
    json.put("text", contents.text());
    return result;
  }

  /** {@code completion/complete}: values for a template's argument. */
  ObjectNode completion(JsonNode params) throws RpcException {
    JsonNode ref = params == null ? null : params.get("ref");
    JsonNode argument = params == null ? null : params.get("argument");
    if (ref == null || !ref.isObject() || !ref.path("type").isString()) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: completion/complete needs a \"ref\" object with a string \"type\"");
    }
    if (argument == null
        || !argument.isObject()
        || !argument.path("name").isString()
        || !argument.path("value").isString()) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: completion/complete needs an \"argument\" object with string"
              + " \"name\" and \"value\"");
    }
    String type = ref.get("type").stringValue();
    if (type.equals("ref/prompt")) {
      throw ProtocolErrors.invalidParams("Invalid params: this server has no prompts to complete");
    }
    if (!type.equals("ref/resource") || !ref.path("uri").isString()) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: ref.type must be \"ref/resource\" with a string \"uri\" (or"
              + " \"ref/prompt\")");
    }
    Resources.Completion completion;
    try {
      completion =
          resources.complete(
              ref.get("uri").stringValue(),
              argument.get("name").stringValue(),
              argument.get("value").stringValue());
    } catch (Resources.Refused refused) {
      throw ProtocolErrors.invalidParams("Invalid params: " + refused.getMessage());
    }
    ObjectNode result = NODES.objectNode();
    ObjectNode json = result.putObject("completion");
    ArrayNode values = json.putArray("values");
    for (String value : completion.values()) {
      values.add(value);
    }
    json.put("total", completion.total());
    json.put("hasMore", completion.hasMore());
    return result;
  }

  ObjectNode subscribe(JsonNode params, Session session) throws RpcException {
    subscriptions.subscribe(session, uriOf(params));
    return NODES.objectNode();
  }

  ObjectNode unsubscribe(JsonNode params, Session session) throws RpcException {
    subscriptions.unsubscribe(session, uriOf(params));
    return NODES.objectNode();
  }

  /**
   * Opens a stream on the exchange's outlet: its acknowledgment is queued now, its notifications
   * follow, and its reply only when the server ends it. A stream cancelled while it opened is
   * closed at once.
   */
  void listen(Request request, Exchange exchange) throws RpcException {
    JsonNode filter = request.params().get("notifications");
    if (filter == null || !filter.isObject()) {
      throw ProtocolErrors.invalidParams(
          "Invalid params: subscriptions/listen needs a \"notifications\" object");
    }
    for (String flag : List.of("toolsListChanged", "promptsListChanged", "resourcesListChanged")) {
      JsonNode value = filter.get(flag);
      if (value != null && !value.isBoolean()) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: notifications." + flag + " must be a boolean");
      }
    }
    JsonNode asked = filter.get("resourceSubscriptions");
    List<String> uris = null;
    if (asked != null) {
      if (!asked.isArray()) {
        throw ProtocolErrors.invalidParams(
            "Invalid params: notifications.resourceSubscriptions must be an array of strings");
      }
      uris = new ArrayList<>();
      for (JsonNode uri : asked) {
        if (!uri.isString()) {
          throw ProtocolErrors.invalidParams(
              "Invalid params: notifications.resourceSubscriptions must be an array of strings");
        }
        uris.add(uri.stringValue());
      }
    }
    boolean listChanged = filter.path("resourcesListChanged").asBoolean(false);
    subscriptions.open(exchange.outlet(), request.id(), listChanged, uris);
    if (exchange.getAsBoolean()) {
      subscriptions.cancel(exchange.outlet(), request.id());
    }
  }

  private static String uriOf(JsonNode params) throws RpcException {
    JsonNode uri = params == null ? null : params.get("uri");
    if (uri == null || !uri.isString()) {
      throw ProtocolErrors.invalidParams("Invalid params: a string \"uri\" is required");
    }
    return uri.stringValue();
  }

  private static String optionalString(JsonNode params, String name) throws RpcException {
    JsonNode value = params == null ? null : params.get(name);
    if (value == null) {
      return null;
    }
    if (!value.isString()) {
      throw ProtocolErrors.invalidParams("Invalid params: \"" + name + "\" must be a string");
    }
    return value.stringValue();
  }
}
