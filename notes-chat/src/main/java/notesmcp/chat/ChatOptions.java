package notesmcp.chat;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import notesmcp.cli.DurationText;
import notesmcp.cli.Flag;
import notesmcp.cli.UsageException;

/**
 * The command line of {@code notes-mcp chat} (docs/chat.md): {@code -root W [-proposals DIR]
 * [-provider ollama|openai] [-model-url URL] -model NAME [-max-tool-calls N] [-server-command
 * CMD]}, and {@code -policy}, {@code -max-calls}, {@code -timeout}, {@code -model-timeout}. Flags
 * are written as everywhere in this program: one or two dashes, a value as the next word or after
 * {@code =}.
 */
record ChatOptions(
    boolean help,
    Path root,
    Path proposals,
    Path policyFile,
    Integer maxCalls,
    Provider provider,
    URI modelUrl,
    String model,
    int maxToolCalls,
    String serverCommand,
    Duration timeout,
    Duration modelTimeout) {

  static final int DEFAULT_MAX_TOOL_CALLS = 8;
  static final int MOST_TOOL_CALLS = 100;
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /** A local model on a CPU can take minutes for one answer; a dead server still ends the wait. */
  static final Duration DEFAULT_MODEL_TIMEOUT = Duration.ofMinutes(5);

  private static final Set<String> SWITCHES = Set.of("help", "h");
  private static final Set<String> VALUED =
      Set.of(
          "root",
          "proposals",
          "policy",
          "max-calls",
          "provider",
          "model-url",
          "model",
          "max-tool-calls",
          "server-command",
          "timeout",
          "model-timeout");

  static ChatOptions parse(List<String> args) throws UsageException {
    boolean help = false;
    Path root = null;
    Path proposals = null;
    Path policy = null;
    Integer maxCalls = null;
    Provider provider = Provider.OLLAMA;
    URI modelUrl = null;
    String model = null;
    Integer maxToolCalls = null;
    String serverCommand = null;
    Duration timeout = null;
    Duration modelTimeout = null;
    for (int i = 0; i < args.size(); i++) {
      Flag flag = Flag.read(args, i, SWITCHES, VALUED, " for chat");
      i += flag.words - 1;
      String value = flag.value;
      switch (flag.name) {
        case "help", "h" -> help = true;
        case "root" -> root = flag.path();
        case "proposals" -> proposals = flag.path();
        case "policy" -> policy = flag.path();
        case "max-calls" -> maxCalls = count("-max-calls", value, 0, Integer.MAX_VALUE);
        case "provider" -> provider = provider(value);
        case "model-url" -> modelUrl = url(value);
        case "model" -> model = model(value);
        case "max-tool-calls" -> maxToolCalls = count("-max-tool-calls", value, 1, MOST_TOOL_CALLS);
        case "server-command" -> serverCommand = flag.command();
        case "timeout" -> timeout = duration("-timeout", value);
        case "model-timeout" -> modelTimeout = duration("-model-timeout", value);
        default -> throw new AssertionError(flag.name);
      }
    }
    if (help) {
      return new ChatOptions(
          true, null, null, null, null, provider, null, null, 0, null, null, null);
    }
    if (root == null && serverCommand == null) {
      throw new UsageException(
          "chat needs -root PATH (the workspace its own server serves) or -server-command CMD");
    }
    if (root != null && serverCommand != null) {
      throw new UsageException(
          "give -root PATH (this program's own server) or -server-command CMD, not both");
    }
    if (serverCommand != null && (proposals != null || policy != null || maxCalls != null)) {
      throw new UsageException(
          "-proposals, -policy and -max-calls go to this program's own server (-root); with"
              + " -server-command, give the server its flags in CMD");
    }
    if (model == null) {
      throw new UsageException(
          "chat needs -model NAME, a model the provider serves (for Ollama: one you pulled, such"
              + " as -model qwen3:4b)");
    }
    return new ChatOptions(
        false,
        root,
        proposals,
        policy,
        maxCalls,
        provider,
        modelUrl == null ? provider.defaultUrl() : modelUrl,
        model,
        maxToolCalls == null ? DEFAULT_MAX_TOOL_CALLS : maxToolCalls,
        serverCommand,
        timeout == null ? DEFAULT_TIMEOUT : timeout,
        modelTimeout == null ? DEFAULT_MODEL_TIMEOUT : modelTimeout);
  }

  private static Provider provider(String text) throws UsageException {
    Optional<Provider> provider = Provider.named(text);
    if (provider.isEmpty()) {
      throw new UsageException("-provider is ollama or openai, not \"" + text + "\"");
    }
    return provider.get();
  }

  /** An http or https URL with a host: where the model server listens. */
  private static URI url(String text) throws UsageException {
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https"))
          && uri.getHost() != null
          && uri.getQuery() == null
          && uri.getFragment() == null) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new UsageException(
        "-model-url takes an http or https URL such as http://127.0.0.1:11434 (Ollama) or"
            + " http://127.0.0.1:8080/v1 (OpenAI-compatible), not \""
            + text
            + "\"");
  }

  private static String model(String text) throws UsageException {
    if (text.isBlank()) {
      throw new UsageException("-model needs a model name, such as -model qwen3:4b");
    }
    return text;
  }

  private static int count(String flag, String text, int least, int most) throws UsageException {
    try {
      int value = Integer.parseInt(text);
      if (value >= least && value <= most) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(
        flag
            + " takes a whole number from "
            + least
            + (most == Integer.MAX_VALUE ? " up" : " to " + most)
            + ", not \""
            + text
            + "\"");
  }

  private static Duration duration(String flag, String text) throws UsageException {
    Optional<Duration> value = DurationText.parse(text);
    if (value.isEmpty()) {
      throw new UsageException(flag + " takes " + DurationText.ACCEPTED + ", not \"" + text + "\"");
    }
    return value.get();
  }
}
