package notesmcp.policy.proposals;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.rules.NoteNameFuzzTest;
import notesmcp.policy.rules.StrictJson;
import tools.jackson.databind.JsonNode;

/**
 * The proposal record format: any bytes read as a record give a proposal or {@link
 * RecordFormat.Damaged}, never another exception, and a proposal exactly when a reference reading
 * of the documented format accepts the bytes; a record that parses round-trips; and any proposal's
 * record is pure printable ASCII and reads back as the same proposal.
 */
class RecordFormatFuzzTest {
  /** The id every fuzzed record is read as (the file name's part, checked before any read). */
  private static final String ID = "0f8b8b4e-55d5-4c1e-9b7e-3c1f7d2a9e10";

  private static final Set<String> KEYS =
      Set.of("format", "id", "path", "bytes", "sha256", "createdAt", "clientInfo", "content");

  @FuzzTest
  @DictionaryEntries({
    "\"format\"",
    "\"notes-mcp/proposal/1\"",
    "\"id\"",
    "\"0f8b8b4e-55d5-4c1e-9b7e-3c1f7d2a9e10\"",
    "\"path\"",
    "\"bytes\"",
    "\"sha256\"",
    "\"createdAt\"",
    "\"clientInfo\"",
    "\"content\"",
    "\"name\"",
    "\"version\"",
    "\"verified\"",
    "false",
    "null",
    "\\ud800",
    "\\u0000"
  })
  void anyBytesGiveAProposalOrDamaged(byte[] input) {
    Proposal proposal;
    try {
      proposal = RecordFormat.decode(ID, input);
    } catch (RecordFormat.Damaged e) {
      assertThat(e.getMessage()).isNotBlank();
      proposal = null;
    }
    JsonNode reference = reference(input);
    if (reference == null) {
      assertThat(proposal).as("accepted, but the reference refuses").isNull();
      return;
    }
    assertThat(proposal).as("refused, but the reference accepts").isNotNull();
    assertThat(proposal.path().value()).isEqualTo(reference.get("path").stringValue());
    assertThat(proposal.content()).isEqualTo(reference.get("content").stringValue());
    assertThat(proposal.createdAt())
        .isEqualTo(Instant.parse(reference.get("createdAt").stringValue()));
    JsonNode client = reference.get("clientInfo");
    if (client.isNull()) {
      assertThat(proposal.requester()).isNull();
    } else {
      assertThat(proposal.requester())
          .isEqualTo(
              new Requester(client.get("name").stringValue(), client.get("version").stringValue()));
    }
    assertRoundTrips(proposal);
  }

  @FuzzTest
  void anyProposalRoundTripsThroughItsRecord(FuzzedDataProvider data) {
    String id = new UUID(data.consumeLong(), data.consumeLong()).toString();
    NoteName path =
        NoteName.configured(
            data.pickValue(List.of("draft.txt", "notes.txt", "a", "A-b_c.9", "x".repeat(255))));
    Instant createdAt =
        Instant.ofEpochSecond(
            data.consumeLong(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()),
            data.consumeInt(0, 999_999_999));
    Requester requester =
        data.consumeBoolean()
            ? new Requester(data.consumeString(300), data.consumeString(300))
            : null;
    String content = data.consumeRemainingAsString();
    Proposal proposal = new Proposal(id, path, content, createdAt, requester);

    byte[] record = RecordFormat.encode(proposal);

    assertPrintableAscii(record);
    if (isValidUnicode(content)) {
      assertThat(decode(id, record)).isEqualTo(proposal);
    } else {
      // Never stored: the tool refuses such content before a proposal exists (NotesTest).
      assertThat(decode(id, record)).isNull();
    }
  }

  /** The record's bytes read back, or null when they are refused as damaged. */
  private static Proposal decode(String id, byte[] record) {
    try {
      return RecordFormat.decode(id, record);
    } catch (RecordFormat.Damaged e) {
      return null;
    }
  }

  private static void assertRoundTrips(Proposal proposal) {
    byte[] record = RecordFormat.encode(proposal);
    assertPrintableAscii(record);
    assertThat(decode(proposal.id(), record)).isEqualTo(proposal);
  }

  /** "in pure ASCII (every non-ASCII and control character escaped)", one line. */
  private static void assertPrintableAscii(byte[] record) {
    assertThat(record[record.length - 1]).isEqualTo((byte) '\n');
    for (int i = 0; i < record.length - 1; i++) {
      assertThat(record[i] >= 0x20 && record[i] < 0x7f)
          .as("byte %d of %s", i, new String(record, StandardCharsets.US_ASCII))
          .isTrue();
    }
  }

  /**
   * The documented format (RecordFormat's class comment, docs/approvals.md), read independently:
   * the tree, when the record is one to trust, else null.
   */
  private static JsonNode reference(byte[] input) {
    JsonNode tree = StrictJson.read(input);
    if (tree == null || !tree.isObject() || !tree.propertyNames().equals(KEYS)) {
      return null;
    }
    for (String key : List.of("format", "id", "path", "sha256", "createdAt", "content")) {
      if (!tree.get(key).isString()) {
        return null;
      }
    }
    if (!tree.get("format").stringValue().equals("notes-mcp/proposal/1")
        || !tree.get("id").stringValue().equals(ID)
        || !NoteNameFuzzTest.followsRules(tree.get("path").stringValue())
        || !isClientInfo(tree.get("clientInfo"))) {
      return null;
    }
    String content = tree.get("content").stringValue();
    if (!isValidUnicode(content)) {
      return null;
    }
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    if (!tree.get("bytes").isInt() || tree.get("bytes").intValue() != bytes.length) {
      return null;
    }
    if (!tree.get("sha256").stringValue().equals(sha256(bytes))) {
      return null;
    }
    try {
      Instant.parse(tree.get("createdAt").stringValue());
    } catch (DateTimeParseException e) {
      return null;
    }
    return tree;
  }

  private static boolean isClientInfo(JsonNode client) {
    if (client.isNull()) {
      return true;
    }
    return client.isObject()
        && client.propertyNames().equals(Set.of("name", "version", "verified"))
        && client.get("name").isString()
        && client.get("version").isString()
        && client.get("verified").isBoolean()
        && !client.get("verified").booleanValue();
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of()
          .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private static boolean isValidUnicode(String text) {
    return StandardCharsets.UTF_8.newEncoder().canEncode(text);
  }
}
