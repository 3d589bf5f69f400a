package notesmcp.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The policy's own limits, exactly at their edges. */
class PolicyTest {
  private static Policy withNoteBytes(int bytes) {
    return Policy.of(List.of("notes.txt"), List.of(), bytes, 16);
  }

  @Test
  void aNoteMayBeOneByteToOneMebibyte() {
    assertThat(withNoteBytes(1).maxNoteBytes()).isEqualTo(1);
    assertThat(withNoteBytes(1024 * 1024).maxNoteBytes()).isEqualTo(1024 * 1024);
    assertThatThrownBy(() -> withNoteBytes(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxNoteBytes must be 1..1048576, not 0");
    assertThatThrownBy(() -> withNoteBytes(1024 * 1024 + 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxNoteBytes must be 1..1048576, not 1048577");
  }

  @Test
  void theCallBudgetMayBeZeroButNotLess() {
    assertThat(Policy.of(List.of("notes.txt"), List.of(), 10, 0).maxCalls()).isZero();
    assertThat(Policy.defaults().withMaxCalls(0).maxCalls()).isZero();
    assertThatThrownBy(() -> Policy.of(List.of("notes.txt"), List.of(), 10, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxCalls must be >= 0, not -1");
  }

  @Test
  void atLeastOneNoteIsReadable() {
    assertThatThrownBy(() -> Policy.of(List.of(), List.of("draft.txt"), 10, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("readable must name at least one note");
  }
}
