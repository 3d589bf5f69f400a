package notesmcp.policy.rules;

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

  @Test
  void aPolicyWithoutWildcardsInReadableNamesItsNotesInItsOwnOrder() {
    Policy named = Policy.of(List.of("b.md", "Projects/a.md"), List.of("b.md"), 10, 1);
    Policy patterned = Policy.of(List.of("b.md", "**/*.md"), List.of(), 10, 1);

    assertThat(named.namesNotes()).isTrue();
    assertThat(named.named()).extracting(NoteName::value).containsExactly("b.md", "Projects/a.md");
    assertThat(named.listsReadable()).isTrue();
    assertThat(patterned.namesNotes()).isFalse();
    assertThat(patterned.named()).isNull();
    assertThat(Policy.defaults().namesNotes()).isTrue();
  }

  @Test
  void moreThanSixtyFourNamesAreNotListedInSchemasOrRefusals() {
    List<String> names = new java.util.ArrayList<>();
    for (int i = 0; i < 65; i++) {
      names.add("n" + i + ".md");
    }
    assertThat(Policy.of(names.subList(0, 64), List.of(), 10, 1).listsReadable()).isTrue();
    assertThat(Policy.of(names, List.of(), 10, 1).listsReadable()).isFalse();
  }

  @Test
  void excludeWinsOverReadableAndProposableAndCoversWhatIsBelowAFolder() {
    Policy policy =
        Policy.of(List.of("**/*.md"), List.of("Private", "*.tmp.md"), List.of("**/*.md"), 10, 1);

    assertThat(policy.readRefusal("Projects/a.md")).isNull();
    assertThat(policy.readRefusal("Private/a.md"))
        .isEqualTo("path \"Private/a.md\" is excluded by the policy (exclude \"Private\")");
    assertThat(policy.readRefusal("Private/deep/a.md")).isNotNull();
    assertThat(policy.readRefusal("x.tmp.md"))
        .isEqualTo("path \"x.tmp.md\" is excluded by the policy (exclude \"*.tmp.md\")");
    assertThat(policy.proposeRefusal("Private/new.md")).isNotNull();
    assertThat(policy.readRefusal("notes.txt"))
        .isEqualTo(
            "path \"notes.txt\" is not allowed by the policy: it matches none of its readable"
                + " names and patterns");
  }

  @Test
  void anExcludedExactNameIsNotAmongTheNamedNotes() {
    Policy policy = Policy.of(List.of("a.md", "b.md"), List.of("a.md"), List.of(), 10, 1);

    assertThat(policy.named()).extracting(NoteName::value).containsExactly("b.md");
    assertThat(policy.readableNamed("a.md")).isNull();
  }

  @Test
  void theReachEntersOnlyFoldersAReadablePatternCanGoOnInAndNoExcludedOne() {
    Policy policy =
        Policy.of(List.of("Projects/*/*.md", "top.md"), List.of("Projects/Old"), List.of(), 10, 1);
    Policy.Reach root = policy.reach();

    assertThat(root.reads("top.md")).isTrue();
    assertThat(root.reads("other.md")).isFalse();
    assertThat(root.enter("Journal")).as("no pattern goes on in Journal").isNull();
    Policy.Reach projects = root.enter("Projects");
    assertThat(projects).isNotNull();
    assertThat(projects.reads("a.md")).as("Projects/a.md has one folder too few").isFalse();
    assertThat(projects.enter("Old")).as("excluded").isNull();
    Policy.Reach kite = projects.enter("Kite");
    assertThat(kite.reads("plan.md")).isTrue();
    assertThat(kite.enter("deeper")).isNull();
  }

  @Test
  void aFolderAnyDepthPatternReachesEverywhereButTheExcluded() {
    Policy policy = Policy.of(List.of("**/*.md"), List.of("Private/**"), List.of(), 10, 1);
    Policy.Reach deep = policy.reach().enter("a").enter("b").enter("c");

    assertThat(deep.reads("x.md")).isTrue();
    assertThat(deep.reads("x.txt")).isFalse();
    assertThat(policy.reach().enter("Private")).isNull();
  }
}
