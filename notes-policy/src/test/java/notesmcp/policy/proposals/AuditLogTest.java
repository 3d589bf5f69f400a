package notesmcp.policy.proposals;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How a line of the audit trail reads back for a person ({@link AuditLog#readable}). What a call's
 * line names is {@code CallNamesTest}'s; AuditLogIT runs the whole trail end to end.
 */
class AuditLogTest {
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
