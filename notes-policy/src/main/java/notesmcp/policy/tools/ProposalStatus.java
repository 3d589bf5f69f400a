package notesmcp.policy.tools;

import java.io.IOException;
import java.util.Objects;
import java.util.Set;
import notesmcp.files.FileProblem;
import notesmcp.policy.proposals.Authenticated;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.proposals.ProposalDirectory;
import notesmcp.policy.proposals.Recorded;
import notesmcp.text.Quote;

/**
 * {@code proposal_status}: what became of a proposal of this server's folder (or of its memory,
 * when it has none). Reads only; nothing here can approve. Any thread.
 */
final class ProposalStatus {
  private final ProposalDirectory directory;
  private final NoteProposer proposer;

  ProposalStatus(ProposalDirectory directory, NoteProposer proposer) {
    this.directory = directory;
    this.proposer = proposer;
  }

  /**
   * {@code proposal_status}: what became of a proposal of this server's folder (or of its memory,
   * when it has none). Reads only; nothing here can approve.
   */
  Outcome answer(Arguments arguments, Authenticated who) throws Arguments.Rejected {
    arguments.allowOnly(NoteAccess.PROPOSAL_STATUS, Set.of("proposal_id"));
    String id = arguments.string("proposal_id");
    String asker = Authenticated.nameOf(who);
    if (directory == null) {
      Proposal proposal = proposer.kept(id);
      if (proposal != null && Objects.equals(proposal.authenticated(), asker)) {
        return statusAnswer(proposal, ProposalDirectory.Status.PENDING);
      }
      return unknownProposal(id);
    }
    try {
      ProposalDirectory.Status status = directory.statusOf(id);
      if (status == null) {
        return unknownProposal(id);
      }
      Recorded entry = directory.load(id);
      // Another caller's proposal is answered exactly as one that does not exist; a damaged
      // record's requester cannot be read, so only a caller no transport authenticated is told.
      if (entry instanceof Recorded.Damaged
          ? asker != null
          : !Objects.equals(((Recorded.Valid) entry).proposal().authenticated(), asker)) {
        return unknownProposal(id);
      }
      if (entry instanceof Recorded.Damaged) {
        return new Outcome.Answer(
            JsonText.object("status", status.answer(), "proposal_id", id, "damaged", "true"));
      }
      return statusAnswer(((Recorded.Valid) entry).proposal(), status);
    } catch (IOException e) {
      return new Outcome.Refusal(
          "the status of proposal " + id + " cannot be read (" + FileProblem.describe(e) + ")");
    }
  }

  private static Outcome statusAnswer(Proposal proposal, ProposalDirectory.Status status) {
    return new Outcome.Answer(
        JsonText.object(
            "status",
            status.answer(),
            "proposal_id",
            proposal.id(),
            "path",
            proposal.path().value(),
            "kind",
            proposal.isEdit() ? "edit" : "new_note",
            "sha256",
            proposal.sha256()));
  }

  private static Outcome unknownProposal(String id) {
    return new Outcome.Refusal(
        "there is no proposal "
            + Quote.of(id)
            + " of this server; proposal_id is the id a"
            + " propose_note or propose_edit result gave");
  }
}
