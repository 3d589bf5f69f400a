package notesmcp.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The hosts {@code notes-mcp config} knows: for each, the entry it prints and the edits {@code
 * --install} makes to the host's user-level configuration, with the read-only tools ({@link
 * HostTools#READ_ONLY}) allowed without a prompt and the rest ({@link HostTools#ASKED}) left to, or
 * put under, the host's confirmation wherever its configuration can say so. An entry starts this
 * program as a stdio server ({@link Server}), or reaches one that runs elsewhere over HTTP ({@link
 * Remote}) with a token the host reads from an environment variable, so that no file holds it.
 * Where each file is, and why, is in docs/hosts.md.
 */
final class Hosts {
  static final String DEFAULT = "claude-desktop";
  static final List<String> NAMES =
      List.of("claude-desktop", "cursor", "vscode", "claude-code", "codex", "gemini", "qwen");

  /** What a host's entry names: the server's name in the host's list, and how it is reached. */
  sealed interface Entry permits Server, Remote {
    String name();
  }

  /** The server as a host starts it: its name in the host's list, the command and its words. */
  record Server(String name, String command, List<String> args) implements Entry {}

  /**
   * A server that runs elsewhere, at {@code url} (Streamable HTTP), whose token the host reads from
   * the environment variable {@code tokenEnv} when it connects: the entry holds only the variable's
   * name, in the host's own syntax for it.
   */
  record Remote(String name, String url, String tokenEnv) implements Entry {}

  /** The hosts whose files take a URL and an {@code Authorization} header. */
  static final List<String> REMOTE =
      List.of("cursor", "vscode", "claude-code", "codex", "gemini", "qwen");

  /** How an edit changes its file. */
  enum Kind {
    /** Sets the server's member (the edit that can find one of that name already there). */
    SERVER,
    /** Adds strings missing from an array (a host's allow or ask list). */
    LIST,
    /** Appends the server's TOML tables (Codex). */
    TOML,
    /** A whole file of our own (Gemini CLI's policy file for the server): its text. */
    OWN
  }

  /**
   * One change to one file: at {@code path} (keys from the top), {@code key} gets {@code value}.
   */
  record Edit(
      Path file,
      Kind kind,
      JsonSplice.Flavor flavor,
      List<String> path,
      String key,
      Object value,
      String says) {}

  private Hosts() {}

  /** The entry printed for {@code host}: JSON, TOML (Codex), or a command line (Claude Code). */
  static String print(String host, Entry server) {
    switch (host) {
      case "claude-desktop":
      case "cursor":
        return json(members("mcpServers", server.name(), plain(server)));
      case "vscode":
        return json(members("servers", server.name(), typed(server, "${env:")));
      case "claude-code":
        return claudeCodeLine(server);
      case "codex":
        return TomlTables.tables(List.of("mcp_servers", server.name()), codex(server))
            .stripTrailing();
      case "gemini":
        return json(members("mcpServers", server.name(), untrusted(server)));
      case "qwen":
        {
          Map<String, Object> settings = members("mcpServers", server.name(), untrusted(server));
          settings.put("permissions", permissions(server.name()));
          return json(settings);
        }
      default:
        throw new AssertionError(host);
    }
  }

  /**
   * The edits {@code --install} makes for {@code host}, the server's entry last: a refusal of the
   * entry (a server of that name already there) stops before anything is written, and a write that
   * fails after the allow lists leaves only rules for tools of a server that is not there.
   */
  static List<Edit> edits(String host, Entry server, Map<String, String> env) {
    Path home = Path.of(env.getOrDefault("HOME", System.getProperty("user.home")));
    Path config = dir(env, "XDG_CONFIG_HOME", home.resolve(".config"));
    List<Edit> edits = new ArrayList<>();
    String name = server.name();
    switch (host) {
      case "claude-desktop":
        edits.add(
            server(
                config.resolve("Claude/claude_desktop_config.json"),
                JsonSplice.Flavor.STRICT,
                "mcpServers",
                name,
                plain(server)));
        break;
      case "cursor":
        edits.add(
            server(
                home.resolve(".cursor/mcp.json"),
                JsonSplice.Flavor.STRICT,
                "mcpServers",
                name,
                plain(server)));
        break;
      case "vscode":
        edits.add(
            server(
                config.resolve("Code/User/mcp.json"),
                JsonSplice.Flavor.JSONC,
                "servers",
                name,
                typed(server, "${env:")));
        break;
      case "claude-code":
        {
          Path dir = dir(env, "CLAUDE_CONFIG_DIR", null);
          Path settings =
              dir == null ? home.resolve(".claude/settings.json") : dir.resolve("settings.json");
          Path state = dir == null ? home.resolve(".claude.json") : dir.resolve(".claude.json");
          edits.add(
              list(
                  settings,
                  JsonSplice.Flavor.STRICT,
                  "permissions",
                  "allow",
                  allowed(name),
                  "allowed without asking"));
          edits.add(
              list(
                  settings,
                  JsonSplice.Flavor.STRICT,
                  "permissions",
                  "ask",
                  asked(name),
                  "always asked"));
          edits.add(
              server(state, JsonSplice.Flavor.STRICT, "mcpServers", name, typed(server, "${")));
          break;
        }
      case "codex":
        edits.add(
            new Edit(
                dir(env, "CODEX_HOME", home.resolve(".codex")).resolve("config.toml"),
                Kind.TOML,
                null,
                List.of("mcp_servers"),
                name,
                codex(server),
                "[mcp_servers." + name + "]"));
        break;
      case "gemini":
        {
          Path dir = dir(env, "GEMINI_CLI_HOME", home).resolve(".gemini");
          edits.add(
              new Edit(
                  dir.resolve("policies/notes-mcp-" + name + ".toml"),
                  Kind.OWN,
                  null,
                  List.of(),
                  name,
                  geminiPolicy(name),
                  "the rules for the MCP server \"" + name + "\""));
          edits.add(
              server(
                  dir.resolve("settings.json"),
                  JsonSplice.Flavor.COMMENTS,
                  "mcpServers",
                  name,
                  untrusted(server)));
          break;
        }
      case "qwen":
        {
          Path dir = dir(env, "QWEN_HOME", home.resolve(".qwen"));
          Path file = dir.resolve("settings.json");
          edits.add(
              list(
                  file,
                  JsonSplice.Flavor.COMMENTS,
                  "permissions",
                  "allow",
                  allowed(name),
                  "allowed without asking"));
          edits.add(
              list(
                  file,
                  JsonSplice.Flavor.COMMENTS,
                  "permissions",
                  "ask",
                  asked(name),
                  "always asked"));
          edits.add(
              server(file, JsonSplice.Flavor.COMMENTS, "mcpServers", name, untrusted(server)));
          break;
        }
      default:
        throw new AssertionError(host);
    }
    return edits;
  }

  private static Path dir(Map<String, String> env, String variable, Path otherwise) {
    String value = env.get(variable);
    return value == null || value.isEmpty() || !Path.of(value).isAbsolute()
        ? otherwise
        : Path.of(value);
  }

  private static Edit server(
      Path file, JsonSplice.Flavor flavor, String key, String name, Object value) {
    return new Edit(file, Kind.SERVER, flavor, List.of(key), name, value, key + "." + name);
  }

  private static Edit list(
      Path file,
      JsonSplice.Flavor flavor,
      String object,
      String key,
      List<String> values,
      String says) {
    return new Edit(file, Kind.LIST, flavor, List.of(object), key, values, says);
  }

  /** {@code {"command": ..., "args": [...]}}, with {@code "type": "stdio"} first if asked. */
  private static Map<String, Object> stdio(Server server, boolean typed) {
    Map<String, Object> entry = new LinkedHashMap<>();
    if (typed) {
      entry.put("type", "stdio");
    }
    entry.put("command", server.command);
    entry.put("args", server.args);
    return entry;
  }

  /**
   * The {@code headers} of a remote entry: {@code Authorization: Bearer} and a reference to the
   * token's variable in the host's syntax, {@code open} + the name + {@code "}"} ({@code ${VAR}},
   * {@code ${env:VAR}}), never the token itself.
   */
  private static Map<String, Object> bearer(Remote remote, String open) {
    return Map.of("Authorization", "Bearer " + open + remote.tokenEnv + "}");
  }

  /** Cursor and Claude Desktop: {@code command} and {@code args}, or {@code url} and headers. */
  private static Map<String, Object> plain(Entry entry) {
    if (entry instanceof Server server) {
      return stdio(server, false);
    }
    Remote remote = (Remote) entry;
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("url", remote.url);
    map.put("headers", bearer(remote, "${env:"));
    return map;
  }

  /**
   * VS Code and Claude Code: {@code "type": "stdio"} with the command, or {@code "type": "http"}
   * with the URL and headers whose variable opens with {@code open}.
   */
  private static Map<String, Object> typed(Entry entry, String open) {
    if (entry instanceof Server server) {
      return stdio(server, true);
    }
    Remote remote = (Remote) entry;
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("type", "http");
    map.put("url", remote.url);
    map.put("headers", bearer(remote, open));
    return map;
  }

  /**
   * Gemini CLI and Qwen Code: the entry with {@code trust: false}, so their prompts stay on; a
   * remote one is {@code httpUrl} (their Streamable HTTP; {@code url} is their older SSE) with
   * headers, whose {@code ${VAR}} they resolve from the environment when they load the file.
   */
  private static Map<String, Object> untrusted(Entry server) {
    Map<String, Object> entry;
    if (server instanceof Server stdio) {
      entry = stdio(stdio, false);
    } else {
      Remote remote = (Remote) server;
      entry = new LinkedHashMap<>();
      entry.put("httpUrl", remote.url);
      entry.put("headers", bearer(remote, "${"));
    }
    entry.put("trust", Boolean.FALSE);
    return entry;
  }

  /**
   * Codex: every tool asked ({@code default_tools_approval_mode = "prompt"}) but the read-only
   * ones, each approved by name ({@code [mcp_servers.NAME.tools.TOOL] approval_mode = "approve"}).
   * A remote server is its {@code url} and {@code bearer_token_env_var}, the variable Codex sends
   * as the bearer token.
   */
  private static Map<String, Object> codex(Entry server) {
    Map<String, Object> entry;
    if (server instanceof Server stdio) {
      entry = stdio(stdio, false);
    } else {
      Remote remote = (Remote) server;
      entry = new LinkedHashMap<>();
      entry.put("url", remote.url);
      entry.put("bearer_token_env_var", remote.tokenEnv);
    }
    entry.put("default_tools_approval_mode", "prompt");
    Map<String, Object> tools = new LinkedHashMap<>();
    for (String tool : HostTools.READ_ONLY) {
      tools.put(tool, Map.of("approval_mode", "approve"));
    }
    entry.put("tools", tools);
    return entry;
  }

  /**
   * Gemini CLI's policy engine (a TOML file in its user policies folder): the read-only tools
   * allowed, the others always asked ({@code ask_user}, which headless runs refuse).
   */
  static String geminiPolicy(String name) {
    String prefix = "mcp_" + name + "_";
    return "# Written by notes-mcp config --install: the MCP server \""
        + name
        + "\" runs its read-only\n"
        + "# tools without asking; its other tools are always asked. Replaced by --install --replace.\n"
        + rule(name, toolNames(prefix, HostTools.READ_ONLY), "allow")
        + "\n"
        + rule(name, toolNames(prefix, HostTools.ASKED), "ask_user");
  }

  private static String rule(String name, List<String> tools, String decision) {
    List<String> quoted = new ArrayList<>();
    for (String tool : tools) {
      quoted.add(TomlTables.string(tool));
    }
    return "[[rule]]\nmcpName = "
        + TomlTables.string(name)
        + "\ntoolName = ["
        + String.join(", ", quoted)
        + "]\ndecision = \""
        + decision
        + "\"\npriority = 500\n";
  }

  /** Claude Code and Qwen Code name a server's tools {@code mcp__SERVER__TOOL}. */
  private static List<String> allowed(String name) {
    return toolNames("mcp__" + name + "__", HostTools.READ_ONLY);
  }

  private static List<String> asked(String name) {
    return toolNames("mcp__" + name + "__", HostTools.ASKED);
  }

  private static Map<String, Object> permissions(String name) {
    Map<String, Object> permissions = new LinkedHashMap<>();
    permissions.put("allow", allowed(name));
    permissions.put("ask", asked(name));
    return permissions;
  }

  private static List<String> toolNames(String prefix, List<String> tools) {
    List<String> names = new ArrayList<>();
    for (String tool : tools) {
      names.add(prefix + tool);
    }
    return names;
  }

  private static Map<String, Object> members(String key, String name, Object value) {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put(name, value);
    Map<String, Object> outer = new LinkedHashMap<>();
    outer.put(key, inner);
    return outer;
  }

  private static String json(Map<String, Object> value) {
    return JsonMapper.builder()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .build()
        .writeValueAsString(JsonSplice.node(value));
  }

  /**
   * {@code claude mcp add --scope user --transport stdio NAME -- CMD ARGS...}, each word
   * shell-quoted: user scope, the same file {@code --install} writes. A remote server: {@code
   * claude mcp add --scope user --transport http NAME URL --header 'Authorization: Bearer ${VAR}'},
   * the header last (the option takes every word after it) and in single quotes, so that the shell
   * writes the reference, not the token, into the file.
   */
  private static String claudeCodeLine(Entry entry) {
    if (entry instanceof Remote remote) {
      return "claude mcp add --scope user --transport http "
          + remote.name
          + " "
          + shellQuote(remote.url)
          + " --header "
          + shellQuote("Authorization: Bearer ${" + remote.tokenEnv + "}");
    }
    Server server = (Server) entry;
    StringBuilder line = new StringBuilder("claude mcp add --scope user --transport stdio ");
    line.append(server.name).append(" --");
    List<String> words = new ArrayList<>();
    words.add(server.command);
    words.addAll(server.args);
    for (String word : words) {
      line.append(' ').append(shellQuote(word));
    }
    return line.toString();
  }

  /**
   * A word as a POSIX shell reads it back unchanged: left bare when it holds only characters no
   * shell treats specially, else in single quotes (a quote inside becomes {@code '\''}).
   */
  static String shellQuote(String word) {
    if (!word.isEmpty() && word.matches("[A-Za-z0-9_./:@%+,-]+")) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
