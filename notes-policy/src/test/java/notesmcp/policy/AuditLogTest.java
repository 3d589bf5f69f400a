package notesmcp.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a call's line names (docs/approvals.md, "The audit trail"): the arguments of {@link
 * AuditLog#NAMED} the client sent as strings, cut when long, nothing else; and how a line reads
 * back for a person ({@link AuditLog#readable}). AuditLogIT runs the whole trail end to end.
 */
class AuditLogTest {
  @Test
  void aCallNamesOnlyItsToolsNamedStringArguments() {
    assertThat(AuditLog.named("read_note", "{\"path\":\"a.md\",\"offset\":3}"))
        .containsExactly("path", "a.md");
    assertThat(
            AuditLog.named(
                "propose_edit", "{\"path\":\"J/b.md\",\"base_sha256\":\"00\",\"content\":\"x\"}"))
        .containsExactly("path", "J/b.md");
    assertThat(AuditLog.named("propose_note", "{\"content\":\"secret\",\"path\":\"d.txt\"}"))
        .containsExactly("path", "d.txt");
    assertThat(AuditLog.named("search_notes", "{\"folder\":\"F\",\"query\":\"kite\",\"limit\":3}"))
        .containsExactly("query", "kite", "folder", "F");
    assertThat(AuditLog.named("list_notes", "{\"folder\":\"F\",\"cursor\":\"c\"}"))
        .containsExactly("folder", "F");
    assertThat(AuditLog.named("proposal_status", "{\"proposal_id\":\"id\"}"))
        .containsExactly("proposal_id", "id");
  }

  @Test
  void argumentsThatAreNotStringsOrNotDecodableNameNothing() {
    assertThat(AuditLog.named("read_note", "")).isEmpty(); // arguments omitted
    assertThat(AuditLog.named("read_note", "{}")).isEmpty();
    assertThat(AuditLog.named("read_note", "{\"path\":7}")).isEmpty();
    assertThat(AuditLog.named("read_note", "{\"path\":{\"a\":\"b\"}}")).isEmpty();
    assertThat(AuditLog.named("read_note", "{\"path\":\"a\",\"path\":\"b\"}")).isEmpty();
    assertThat(AuditLog.named("read_note", "[\"a\"]")).isEmpty();
    assertThat(AuditLog.named("read_note", "{\"path\":\"a\"")).isEmpty();
    assertThat(AuditLog.named("some_tool", "{\"path\":\"a\"}")).isEmpty();
  }

  @Test
  void aLongValueIsCutAfter256CharactersSayingHowManyMore() {
    String path = "\ud83d\ude00".repeat(300); // 300 code points, 600 chars
    List<String> named = AuditLog.named("read_note", "{\"path\":\"" + path + "\"}");

    assertThat(named).hasSize(2);
    assertThat(named.get(1))
        .isEqualTo("\ud83d\ude00".repeat(256) + "... (44 more characters)")
        .startsWith(path.substring(0, 512));
    assertThat(AuditLog.bounded("x".repeat(256))).isEqualTo("x".repeat(256));
  }

  @Test
  void aRecordReadsBackWithItsNonAsciiCharactersAsThemselvesAndAnythingElseAsItIs() {
    assertThat(AuditLog.readable("{\"tool\":\"read_note\",\"path\":\"Caf\\u00E9 \\u001B.md\"}"))
        .isEqualTo("{\"tool\":\"read_note\",\"path\":\"Café \\u001B.md\"}");
    assertThat(AuditLog.readable("{\"a\":\"b\"}")).isEqualTo("{\"a\":\"b\"}");
    // Torn, damaged or not a record: shown as it is.
    assertThat(AuditLog.readable("{\"path\":\"Caf\\u00E9")).isEqualTo("{\"path\":\"Caf\\u00E9");
    assertThat(AuditLog.readable("{\"a\":\"\\u00E9\"}{\"b\":1}"))
        .isEqualTo("{\"a\":\"\\u00E9\"}{\"b\":1}");
    assertThat(AuditLog.readable("x \\u00E9")).isEqualTo("x \\u00E9");
  }
}
