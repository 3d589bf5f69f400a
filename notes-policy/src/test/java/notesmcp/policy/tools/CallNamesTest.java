package notesmcp.policy.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a call's line names (docs/approvals.md, "The audit trail"): the arguments of {@link
 * CallNames#NAMED} the client sent as strings, cut when long, nothing else. AuditLogIT runs the
 * whole trail end to end.
 */
class CallNamesTest {
  @Test
  void aCallNamesOnlyItsToolsNamedStringArguments() {
    assertThat(CallNames.INSTANCE.of("read_note", "{\"path\":\"a.md\",\"offset\":3}"))
        .containsExactly("path", "a.md");
    assertThat(
            CallNames.INSTANCE.of(
                "propose_edit", "{\"path\":\"J/b.md\",\"base_sha256\":\"00\",\"content\":\"x\"}"))
        .containsExactly("path", "J/b.md");
    assertThat(CallNames.INSTANCE.of("propose_note", "{\"content\":\"secret\",\"path\":\"d.txt\"}"))
        .containsExactly("path", "d.txt");
    assertThat(
            CallNames.INSTANCE.of(
                "search_notes", "{\"folder\":\"F\",\"query\":\"kite\",\"limit\":3}"))
        .containsExactly("query", "kite", "folder", "F");
    assertThat(CallNames.INSTANCE.of("list_notes", "{\"folder\":\"F\",\"cursor\":\"c\"}"))
        .containsExactly("folder", "F");
    assertThat(CallNames.INSTANCE.of("proposal_status", "{\"proposal_id\":\"id\"}"))
        .containsExactly("proposal_id", "id");
  }

  @Test
  void argumentsThatAreNotStringsOrNotDecodableNameNothing() {
    assertThat(CallNames.INSTANCE.of("read_note", "")).isEmpty(); // arguments omitted
    assertThat(CallNames.INSTANCE.of("read_note", "{}")).isEmpty();
    assertThat(CallNames.INSTANCE.of("read_note", "{\"path\":7}")).isEmpty();
    assertThat(CallNames.INSTANCE.of("read_note", "{\"path\":{\"a\":\"b\"}}")).isEmpty();
    assertThat(CallNames.INSTANCE.of("read_note", "{\"path\":\"a\",\"path\":\"b\"}")).isEmpty();
    assertThat(CallNames.INSTANCE.of("read_note", "[\"a\"]")).isEmpty();
    assertThat(CallNames.INSTANCE.of("read_note", "{\"path\":\"a\"")).isEmpty();
    assertThat(CallNames.INSTANCE.of("some_tool", "{\"path\":\"a\"}")).isEmpty();
  }

  @Test
  void aLongValueIsCutAfter256CharactersSayingHowManyMore() {
    String path = "\ud83d\ude00".repeat(300); // 300 code points, 600 chars
    List<String> named = CallNames.INSTANCE.of("read_note", "{\"path\":\"" + path + "\"}");

    assertThat(named).hasSize(2);
    assertThat(named.get(1))
        .isEqualTo("\ud83d\ude00".repeat(256) + "... (44 more characters)")
        .startsWith(path.substring(0, 512));
    assertThat(CallNames.bounded("x".repeat(256))).isEqualTo("x".repeat(256));
  }
}
