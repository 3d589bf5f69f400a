package notesmcp.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Each kind of outcome is told to the model as itself, and only a result looks like data. */
class OutcomeTest {
  @Test
  void eachKindStartsWithItsOwnNameAndOnlyAResultIsTheToolsText() {
    List<Outcome> failures =
        List.of(
            new Outcome.Refused("no"),
            new Outcome.ProtocolError(-32602, "bad"),
            new Outcome.Malformed("content is not an array"),
            new Outcome.Unknown("the server exited"),
            new Outcome.NotSent("declined."));
    List<String> prefixes =
        List.of(
            "REFUSED: ",
            "PROTOCOL ERROR: ",
            "PROTOCOL ERROR: ",
            "TRANSPORT FAILURE: ",
            "NOT SENT: ");

    for (int i = 0; i < failures.size(); i++) {
      assertThat(failures.get(i).forModel()).startsWith(prefixes.get(i));
    }
    assertThat(new Outcome.Result("{\"notes\":[]}").forModel()).isEqualTo("{\"notes\":[]}");
    assertThat(new Outcome.Unknown("x").forModel()).contains("unknown").contains("did not retry");
    assertThat(new Outcome.Malformed("x").forModel()).contains("unknown");
    assertThat(new Outcome.Result("\u00e9").forLog()).isEqualTo("result, 2 bytes");
  }
}
