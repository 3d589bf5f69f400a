package notesmcp.chat;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * The model APIs the chat speaks, through LangChain4j's provider modules (docs/chat.md): Ollama's
 * chat API, and any OpenAI-compatible chat completions API (llama.cpp's server, vLLM, LM Studio;
 * its URL ends in {@code /v1}). Both default to a server on this machine.
 */
enum Provider {
  OLLAMA("ollama", "http://127.0.0.1:11434"),
  /** llama.cpp's {@code llama-server} listens on port 8080 by default. */
  OPENAI("openai", "http://127.0.0.1:8080/v1");

  private final String flag;
  private final URI defaultUrl;

  Provider(String flag, String defaultUrl) {
    this.flag = flag;
    this.defaultUrl = URI.create(defaultUrl);
  }

  static Optional<Provider> named(String text) {
    for (Provider provider : values()) {
      if (provider.flag.equals(text.toLowerCase(Locale.ROOT))) {
        return Optional.of(provider);
      }
    }
    return Optional.empty();
  }

  URI defaultUrl() {
    return defaultUrl;
  }

  @Override
  public String toString() {
    return flag;
  }
}
