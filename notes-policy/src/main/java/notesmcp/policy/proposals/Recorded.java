package notesmcp.policy.proposals;

/**
 * One proposal record as read from the proposals folder: the proposal, or, when the record cannot
 * be trusted (unreadable, not owner-only, or not matching its own SHA-256), the reason. A damaged
 * record is shown to the person and can be rejected, never committed.
 */
public sealed interface Recorded permits Recorded.Valid, Recorded.Damaged {
  String id();

  record Valid(Proposal proposal) implements Recorded {
    @Override
    public String id() {
      return proposal.id();
    }
  }

  record Damaged(String id, String problem) implements Recorded {}
}
