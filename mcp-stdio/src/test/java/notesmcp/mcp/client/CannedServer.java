package notesmcp.mcp.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A stand-in stdio server: a few lines of {@code sh} that log every line received and answer each
 * line carrying an {@code "id"} with the next canned reply, in order. {@code SILENT} answers
 * nothing; {@code EXIT:n} exits with status n. Lines without an id (notifications) are only logged.
 * It ends when its input closes.
 */
final class CannedServer {
  static final String SILENT = "SILENT";

  private static final String SCRIPT =
      "log=\"$1\"; shift\n"
          + "while IFS= read -r line; do\n"
          + "  printf '%s\\n' \"$line\" >> \"$log\"\n"
          + "  case \"$line\" in\n"
          + "    *'\"id\"'*)\n"
          + "      if [ $# -gt 0 ]; then\n"
          + "        case \"$1\" in\n"
          + "          EXIT:*) exit \"${1#EXIT:}\" ;;\n"
          + "          SILENT) ;;\n"
          + "          *) printf '%s\\n' \"$1\" ;;\n"
          + "        esac\n"
          + "        shift\n"
          + "      fi ;;\n"
          + "  esac\n"
          + "done\n";

  private final Path log;
  private final List<String> command = new ArrayList<>();

  CannedServer(Path log, String... replies) {
    this.log = log;
    command.add("sh");
    command.add("-c");
    command.add(SCRIPT);
    command.add("canned-server");
    command.add(log.toString());
    command.addAll(List.of(replies));
  }

  List<String> command() {
    return command;
  }

  /** The lines the server received so far. */
  List<String> received() throws IOException {
    return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
  }

  static String result(int id, String result) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}";
  }

  static String error(int id, int code, String message) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"error\":{\"code\":"
        + code
        + ",\"message\":\""
        + message
        + "\"}}";
  }
}
