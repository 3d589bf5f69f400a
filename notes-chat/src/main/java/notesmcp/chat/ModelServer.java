package notesmcp.chat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.jdk.JdkHttpClient;
import dev.langchain4j.model.catalog.ModelDescription;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.ollama.OllamaModel;
import dev.langchain4j.model.ollama.OllamaModels;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiModelCatalog;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import notesmcp.text.TerminalText;

/**
 * The model server, through LangChain4j's provider modules (docs/chat.md): Ollama's {@code
 * /api/chat} or an OpenAI-compatible {@code /chat/completions}. "An unreachable model server ... is
 * a clear error and exit 4, never a hang": connecting has its own short timeout, each model call
 * the {@code -model-timeout}, and a call is also abandoned by this class when that passes (plus a
 * little), whatever the HTTP client does. Nothing is retried: LangChain4j's retries are off, so a
 * failure is reported at once.
 *
 * <p>Called from the chat's one thread; the model call itself runs on a daemon thread of its own so
 * that the wait for it is bounded.
 */
final class ModelServer implements AutoCloseable {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /** How long the start-up check waits for the model list. */
  private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(30);

  /** Beyond the HTTP client's own read timeout, before this class gives up on a call. */
  private static final Duration GRACE = Duration.ofSeconds(5);

  private static final String API_KEY_ENV = "OPENAI_API_KEY";

  /** The model server failed: unreachable, an HTTP error, no answer in time. */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message);
    }
  }

  private final Provider provider;
  private final URI url;
  private final String model;
  private final Duration timeout;
  private final ChatModel chat;
  private final ExecutorService caller =
      Executors.newSingleThreadExecutor(
          task -> {
            Thread thread = new Thread(task, "notes-mcp chat model");
            thread.setDaemon(true);
            return thread;
          });

  ModelServer(Provider provider, URI url, String model, Duration timeout) {
    this.provider = provider;
    this.url = url;
    this.model = model;
    this.timeout = timeout;
    this.chat =
        provider == Provider.OLLAMA
            ? OllamaChatModel.builder()
                .baseUrl(url.toString())
                .modelName(model)
                .httpClientBuilder(http(timeout))
                .maxRetries(0)
                .build()
            // OpenAiChatModel sets both timeouts of its HTTP client from timeout(): connecting may
            // take as long as a call; the start-up check below still fails fast.
            : OpenAiChatModel.builder()
                .baseUrl(url.toString())
                .modelName(model)
                .apiKey(System.getenv(API_KEY_ENV))
                .httpClientBuilder(http(timeout))
                .timeout(timeout)
                .maxRetries(0)
                .build();
  }

  /** HTTP/1.1 (local model servers speak it; no h2c upgrade attempt), bounded both ways. */
  private static HttpClientBuilder http(Duration readTimeout) {
    return JdkHttpClient.builder()
        .httpClientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1))
        .connectTimeout(CONNECT_TIMEOUT)
        .readTimeout(readTimeout);
  }

  String describe() {
    return model + " via " + provider + " at " + url;
  }

  /**
   * Checks, before the first message, that the server answers, and for Ollama that it has the model
   * (a model that is not pulled would otherwise fail only at the first question).
   */
  void check(PrintStream log) throws Failure {
    Duration wait = timeout.compareTo(CHECK_TIMEOUT) < 0 ? timeout : CHECK_TIMEOUT;
    if (provider == Provider.OLLAMA) {
      List<String> names = new ArrayList<>();
      bounded(
          () -> {
            for (OllamaModel available :
                OllamaModels.builder()
                    .baseUrl(url.toString())
                    .httpClientBuilder(http(wait))
                    .maxRetries(0)
                    .build()
                    .availableModels()
                    .content()) {
              names.add(available.getName());
            }
            return null;
          },
          wait);
      if (!names.contains(model) && !names.contains(model + ":latest")) {
        throw new Failure(
            "the Ollama server at "
                + url
                + " has no model \""
                + TerminalText.visibleLine(model)
                + "\" (it has "
                + (names.isEmpty() ? "none" : TerminalText.visibleLine(String.join(", ", names)))
                + "); pull one that can call tools first, such as: ollama pull qwen3:4b");
      }
      return;
    }
    List<String> names = new ArrayList<>();
    try {
      bounded(
          () -> {
            for (ModelDescription available :
                OpenAiModelCatalog.builder()
                    .baseUrl(url.toString())
                    .apiKey(System.getenv(API_KEY_ENV))
                    .connectTimeout(CONNECT_TIMEOUT)
                    .readTimeout(wait)
                    .build()
                    .listModels()) {
              names.add(available.name());
            }
            return null;
          },
          wait);
    } catch (Failure e) {
      if (find(e.getCause(), HttpException.class) == null) {
        throw e;
      }
      // It answered, only not to GET /models (not every compatible server has it).
      log.println(
          "notes-mcp chat: " + url + " answered but lists no models (" + e.getMessage() + ")");
      return;
    }
    if (!names.contains(model)) {
      log.println(
          "notes-mcp chat: "
              + url
              + " lists "
              + (names.isEmpty() ? "no models" : TerminalText.visibleLine(String.join(", ", names)))
              + ", not \""
              + TerminalText.visibleLine(model)
              + "\"; asking for it anyway (llama.cpp answers with its one model under any name)");
    }
  }

  /** One model call: the conversation so far and the tools on offer; returns its message. */
  AiMessage chat(List<ChatMessage> messages, List<ToolSpecification> tools) throws Failure {
    ChatRequest request =
        ChatRequest.builder().messages(messages).toolSpecifications(tools).build();
    return bounded(() -> chat.chat(request).aiMessage(), timeout.plus(GRACE));
  }

  /**
   * The tool message that carries {@code text} back for {@code request}. OpenAI ties it by the
   * call's {@code tool_call_id}. Ollama's tool calls have no id: its API ties a result by {@code
   * tool_name} and position, and LangChain4j 1.11's own tool message leaves the name out, so the
   * message is written here in Ollama's documented form ({@code role: tool}, {@code content},
   * {@code tool_name}).
   */
  ChatMessage toolMessage(ToolExecutionRequest request, String text) {
    if (provider == Provider.OLLAMA) {
      Map<String, Object> message = new LinkedHashMap<>();
      message.put("role", "tool");
      message.put("content", text);
      message.put("tool_name", request.name());
      return CustomMessage.from(message);
    }
    return ToolExecutionResultMessage.from(request, text);
  }

  private interface Call<T> {
    T run() throws Exception;
  }

  private <T> T bounded(Call<T> call, Duration limit) throws Failure {
    Future<T> answer = caller.submit(call::run);
    try {
      return answer.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      answer.cancel(true);
      throw new Failure("the model server at " + url + " did not answer within " + seconds(limit));
    } catch (ExecutionException e) {
      Failure failure = new Failure(describe(e.getCause()));
      failure.initCause(e.getCause());
      throw failure;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      answer.cancel(true);
      throw new Failure("interrupted while waiting for the model server");
    }
  }

  private String describe(Throwable thrown) {
    String where = "the model server at " + url;
    HttpException http = find(thrown, HttpException.class);
    if (http != null) {
      String hint =
          http.statusCode() == 404 && provider == Provider.OLLAMA
              ? " (is the model pulled? ollama pull " + TerminalText.visibleLine(model) + ")"
              : "";
      return where
          + " answered HTTP "
          + http.statusCode()
          + ": "
          + TerminalText.visibleLine(String.valueOf(http.getMessage()))
          + hint;
    }
    if (find(thrown, ConnectException.class) != null) {
      return where + " cannot be reached: nothing accepts connections there";
    }
    if (find(thrown, UnresolvedAddressException.class) != null
        || find(thrown, UnknownHostException.class) != null) {
      return where + " cannot be reached: its host name does not resolve";
    }
    if (find(thrown, HttpTimeoutException.class) != null
        || find(thrown, dev.langchain4j.exception.TimeoutException.class) != null) {
      return where + " did not answer in time";
    }
    Throwable root = thrown;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return where + " failed: " + TerminalText.visibleLine(String.valueOf(root));
  }

  /** The first {@code type} in the chain of causes, or null. */
  private static <T extends Throwable> T find(Throwable thrown, Class<T> type) {
    for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static String seconds(Duration duration) {
    return duration.toMillis() % 1000 == 0
        ? duration.toSeconds() + " s"
        : duration.toMillis() + " ms";
  }

  @Override
  public void close() {
    caller.shutdownNow();
  }
}
