package notesmcp.policy.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.BooleanSupplier;
import notesmcp.policy.proposals.Authenticated;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.proposals.Recorded;
import notesmcp.policy.proposals.Requester;
import notesmcp.policy.rules.PolicyFile;
import notesmcp.policy.vault.Rules;
import notesmcp.policy.vault.Workspace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * State bound to who asked (docs/http.md, "Whose state is whose"): a proposal keeps the name its
 * transport authenticated its requester by, beside the self-reported client; {@code
 * proposal_status} answers only that requester, and anyone else exactly as for an id that does not
 * exist; another requester's pending proposal is never named by its id; the audit trail names the
 * token and the peer of every call. Over stdio ({@code null}) nothing changes.
 */
class AuthenticatedCallsTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final BooleanSupplier GO = () -> false;
  private static final Authenticated LAPTOP = new Authenticated("laptop", "10.0.0.3");
  private static final Authenticated PHONE = new Authenticated("phone", "10.0.0.2");
  private static final Requester CLIENT = new Requester("some-host", "1.0");

  @TempDir Path dir;
  private NoteAccess notes;
  private ProposalDirectory proposals;
  private String base;

  @BeforeEach
  void serve() throws Exception {
    Path root = Files.createDirectory(dir.resolve("vault"));
    Files.createDirectory(root.resolve("Journal"));
    Files.writeString(root.resolve("Journal/day.md"), "monday\n");
    Path policy =
        Files.writeString(
            dir.resolve("policy.json"),
            "{\"readable\":[\"**/*.md\"],\"editable\":[\"Journal/*.md\"],"
                + "\"proposable\":[\"Inbox/*.md\"],\"maxCalls\":1000}");
    Files.createDirectory(root.resolve("Inbox"));
    Workspace workspace = Workspace.at(root, Rules.NO_MARGIN);
    proposals = ProposalDirectory.open(dir.resolve("proposals"), workspace);
    notes =
        new NoteAccess(
            PolicyFile.load(policy),
            workspace,
            Clock.systemUTC(),
            proposals,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            true);
    base = Proposal.sha256("monday\n".getBytes(StandardCharsets.UTF_8));
  }

  /** The audit log's writer is done before the temporary folder is removed. */
  private JsonNode answer(Outcome outcome) throws Exception {
    assertThat(outcome).isInstanceOf(Outcome.Answer.class);
    return JSON.readTree(outcome.text());
  }

  private String edit(Authenticated who) throws Exception {
    Outcome outcome =
        notes.execute(
            NoteAccess.PROPOSE_EDIT,
            "{\"path\":\"Journal/day.md\",\"base_sha256\":\"" + base + "\",\"append\":\"more\\n\"}",
            CLIENT,
            who,
            GO);
    return answer(outcome).get("proposal_id").stringValue();
  }

  /** The audit trail's writer finishes before the folder it writes in is deleted. */
  @AfterEach
  void finish() {
    notes.finishAuditLog();
  }

  private Outcome status(String id, Authenticated who) {
    return notes.execute(
        NoteAccess.PROPOSAL_STATUS, "{\"proposal_id\":\"" + id + "\"}", CLIENT, who, GO);
  }

  @Test
  void aProposalRecordsItsAuthenticatedRequesterBesideTheSelfReportedClient() throws Exception {
    String id = edit(LAPTOP);

    Proposal kept = ((Recorded.Valid) proposals.load(id)).proposal();
    assertThat(kept.authenticated()).isEqualTo("laptop");
    assertThat(kept.requester()).isEqualTo(CLIENT);
    String record =
        Files.readString(dir.resolve("proposals").resolve(id + ".json"), StandardCharsets.UTF_8);
    assertThat(record).contains("\"authenticatedRequester\":\"laptop\"");
    assertThat(record).doesNotContain("10.0.0.3");
  }

  @Test
  void proposalStatusAnswersOnlyTheRequesterAndAnyoneElseAsForAnUnknownId() throws Exception {
    String id = edit(LAPTOP);

    assertThat(answer(status(id, LAPTOP)).get("status").stringValue())
        .isEqualTo("pending_approval");
    Outcome asPhone = status(id, PHONE);
    Outcome unknown = status("00000000-0000-0000-0000-000000000000", PHONE);
    assertThat(asPhone).isInstanceOf(Outcome.Refusal.class);
    assertThat(asPhone.text())
        .isEqualTo(unknown.text().replace("00000000-0000-0000-0000-000000000000", id));
    assertThat(status(id, null)).isInstanceOf(Outcome.Refusal.class);
  }

  @Test
  void anotherRequestersPendingProposalIsNeverNamedByItsId() throws Exception {
    String id = edit(LAPTOP);

    Outcome again =
        notes.execute(
            NoteAccess.PROPOSE_EDIT,
            "{\"path\":\"Journal/day.md\",\"base_sha256\":\"" + base + "\",\"append\":\"x\\n\"}",
            CLIENT,
            PHONE,
            GO);
    Outcome own =
        notes.execute(
            NoteAccess.PROPOSE_EDIT,
            "{\"path\":\"Journal/day.md\",\"base_sha256\":\"" + base + "\",\"append\":\"y\\n\"}",
            CLIENT,
            LAPTOP,
            GO);

    assertThat(again.text()).startsWith("a proposal for Journal/day.md is already pending;");
    assertThat(again.text()).doesNotContain(id);
    assertThat(own.text()).contains("(" + id + ")");
  }

  @Test
  void theAuditTrailNamesTheTokenAndThePeerOfEveryCall() throws Exception {
    notes.execute(NoteAccess.READ_NOTE, "{\"path\":\"Journal/day.md\"}", CLIENT, PHONE, GO);
    notes.execute(NoteAccess.READ_NOTE, "{\"path\":\"Journal/day.md\"}", CLIENT, null, GO);
    notes.finishAuditLog();

    String[] lines =
        Files.readString(dir.resolve("proposals").resolve("audit.log"), StandardCharsets.UTF_8)
            .split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0]).contains("\"token\":\"phone\",\"peer\":\"10.0.0.2\"");
    assertThat(lines[1]).doesNotContain("\"token\"").doesNotContain("\"peer\"");
  }

  @Test
  void aRecordWithoutAnAuthenticatedRequesterReadsAsBefore() throws Exception {
    String id = edit(null);
    Proposal kept = ((Recorded.Valid) proposals.load(id)).proposal();
    assertThat(kept.authenticated()).isNull();
    assertThat(
            Files.readString(
                dir.resolve("proposals").resolve(id + ".json"), StandardCharsets.UTF_8))
        .doesNotContain("authenticatedRequester");
    assertThat(answer(status(id, null)).get("status").stringValue()).isEqualTo("pending_approval");
  }
}
