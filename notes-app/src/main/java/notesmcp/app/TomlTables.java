package notesmcp.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.toml.TomlMapper;

/**
 * Edits Codex's {@code config.toml} the way TOML allows without rewriting it: the server's tables
 * are appended at the end, and everything before them stays byte for byte. Replacing removes the
 * old server's own tables ({@code [mcp_servers.NAME]} and {@code [mcp_servers.NAME.…]}, each from
 * its header to the next header) before appending. Every edit is checked by parsing the result and
 * comparing it with the parsed original plus the intended change; anything else, such as a server
 * written as an inline table or with dotted keys, is refused rather than guessed at. Stateless.
 */
final class TomlTables {
  private static final TomlMapper TOML = new TomlMapper();

  private TomlTables() {}

  /**
   * {@code text} with the server {@code name} under {@code [mcp_servers]} set to {@code server} (a
   * map of keys to strings, lists of strings and nested maps, which become sub-tables).
   *
   * @param text the file, or null or blank for none
   */
  static String put(String text, String name, Map<String, Object> server, boolean replace)
      throws JsonSplice.Refused {
    String tables = tables(List.of("mcp_servers", name), server);
    if (text == null || text.isBlank()) {
      return tables;
    }
    ObjectNode before = parse(text);
    JsonNode servers = before.get("mcp_servers");
    String kept = text;
    if (servers != null && !servers.isObject()) {
      throw new JsonSplice.Refused("mcp_servers is not a table", false);
    }
    if (servers != null && servers.has(name)) {
      if (!replace) {
        throw new JsonSplice.Refused(
            "already has an MCP server named \"" + name + "\" (mcp_servers." + name + ")", true);
      }
      kept = withoutTables(text, name);
      ObjectNode expected = before.deepCopy();
      ((ObjectNode) expected.get("mcp_servers")).remove(name);
      if (expected.get("mcp_servers").isEmpty()) {
        expected.remove("mcp_servers");
      }
      ObjectNode left = parseOrNull(kept);
      if (left == null || !withoutEmptyServers(left).equals(expected)) {
        throw new JsonSplice.Refused(
            "holds mcp_servers."
                + name
                + " in a form --replace cannot remove (an inline table or dotted keys);"
                + " remove it by hand first",
            false);
      }
    }
    String result = kept + (kept.endsWith("\n") ? "" : "\n") + "\n" + tables;
    ObjectNode want = before.deepCopy();
    ObjectNode all =
        want.get("mcp_servers") instanceof ObjectNode o ? o : want.putObject("mcp_servers");
    all.set(name, JsonSplice.node(server));
    ObjectNode got = parseOrNull(result);
    if (got == null || !got.equals(want)) {
      throw new JsonSplice.Refused(
          "cannot take the table [mcp_servers." + name + "] at its end (it would not parse alike)",
          false);
    }
    return result;
  }

  /** The parsed file, or a refusal that says where it does not parse. */
  static ObjectNode parse(String text) throws JsonSplice.Refused {
    try {
      JsonNode node = TOML.readTree(text);
      return node instanceof ObjectNode object ? object : TOML.createObjectNode();
    } catch (JacksonException e) {
      String problem = e.getOriginalMessage();
      throw new JsonSplice.Refused(
          "does not parse as TOML ("
              + (problem == null ? "not valid TOML" : firstLine(problem))
              + ")",
          false);
    }
  }

  private static ObjectNode parseOrNull(String text) {
    try {
      return parse(text);
    } catch (JsonSplice.Refused e) {
      return null;
    }
  }

  private static ObjectNode withoutEmptyServers(ObjectNode node) {
    JsonNode servers = node.get("mcp_servers");
    if (servers != null && servers.isObject() && servers.isEmpty()) {
      node.remove("mcp_servers");
    }
    return node;
  }

  private static String firstLine(String text) {
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }

  /**
   * The server as TOML tables: {@code [mcp_servers.NAME]} with its plain keys, then one table for
   * each nested map ({@code [mcp_servers.NAME.tools.list_notes]}), each followed by a blank line
   * but the last.
   */
  static String tables(List<String> path, Map<String, Object> table) {
    StringBuilder out = new StringBuilder();
    List<String> nested = new ArrayList<>();
    out.append('[').append(header(path)).append("]\n");
    for (Map.Entry<String, Object> entry : table.entrySet()) {
      if (entry.getValue() instanceof Map<?, ?>) {
        nested.add(entry.getKey());
      } else {
        out.append(key(entry.getKey())).append(" = ").append(value(entry.getValue())).append('\n');
      }
    }
    for (String key : nested) {
      @SuppressWarnings("unchecked")
      Map<String, Object> inner = (Map<String, Object>) table.get(key);
      List<String> deeper = new ArrayList<>(path);
      deeper.add(key);
      boolean leaf = true;
      for (Object value : inner.values()) {
        leaf &= !(value instanceof Map<?, ?>);
      }
      if (leaf && !inner.isEmpty()) {
        out.append('\n').append(tables(deeper, inner));
      } else {
        for (Map.Entry<String, Object> entry : inner.entrySet()) {
          List<String> leafPath = new ArrayList<>(deeper);
          leafPath.add(entry.getKey());
          @SuppressWarnings("unchecked")
          Map<String, Object> leafTable = (Map<String, Object>) entry.getValue();
          out.append('\n').append(tables(leafPath, leafTable));
        }
      }
    }
    return out.toString();
  }

  private static String header(List<String> path) {
    List<String> keys = new ArrayList<>();
    for (String part : path) {
      keys.add(key(part));
    }
    return String.join(".", keys);
  }

  /** A bare key where TOML allows one, else a quoted one. */
  private static String key(String key) {
    return !key.isEmpty() && key.matches("[A-Za-z0-9_-]+") ? key : string(key);
  }

  private static String value(Object value) {
    if (value instanceof String string) {
      return string(string);
    }
    if (value instanceof Boolean bool) {
      return bool.toString();
    }
    if (value instanceof List<?> list) {
      List<String> items = new ArrayList<>();
      for (Object item : list) {
        items.add(value(item));
      }
      return "[" + String.join(", ", items) + "]";
    }
    throw new IllegalArgumentException(String.valueOf(value));
  }

  /**
   * A TOML basic string: {@code "} and {@code \} escaped, control characters as {@code \\uXXXX}.
   */
  static String string(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  /**
   * {@code text} less the tables of server {@code name}: each line that is the header {@code
   * [mcp_servers.NAME]} or {@code [mcp_servers.NAME.…]} (the name bare or quoted) through the line
   * before the next header. Whether that was all of it is the caller's check.
   */
  private static String withoutTables(String text, String name) {
    String[] lines = text.split("(?<=\n)", -1);
    StringBuilder out = new StringBuilder();
    boolean dropping = false;
    for (String line : lines) {
      String trimmed = line.strip();
      if (trimmed.startsWith("[")) {
        dropping = isServerHeader(trimmed, name);
      }
      if (!dropping) {
        out.append(line);
      }
    }
    return out.toString();
  }

  private static boolean isServerHeader(String header, String name) {
    if (header.startsWith("[[")) {
      return false;
    }
    int close = header.indexOf(']');
    if (close < 0) {
      return false;
    }
    String inside = header.substring(1, close).replace(" ", "").replace("\t", "");
    for (String form : List.of(name, "\"" + name + "\"", "'" + name + "'")) {
      for (String table : List.of("mcp_servers", "\"mcp_servers\"", "'mcp_servers'")) {
        String prefix = table + "." + form;
        if (inside.equals(prefix) || inside.startsWith(prefix + ".")) {
          return true;
        }
      }
    }
    return false;
  }
}
