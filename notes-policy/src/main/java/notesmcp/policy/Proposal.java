package notesmcp.policy;

import java.time.Instant;

/**
 * A note a client asked to create, waiting for a person's approval. Immutable: the destination and
 * the exact content never change after the proposal is accepted.
 */
public record Proposal(String id, NoteName path, String content, Instant createdAt) {}
