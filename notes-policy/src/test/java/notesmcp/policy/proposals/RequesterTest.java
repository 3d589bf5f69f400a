package notesmcp.policy.proposals;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A client's self-description is kept to 256 characters a part, whole characters only. */
class RequesterTest {
  @Test
  void partsOf256CharactersAreKept() {
    String name = "n".repeat(256);
    String version = "\ud83d\ude00".repeat(256); // 256 characters, 512 UTF-16 units

    Requester requester = new Requester(name, version);

    assertThat(requester.name()).isEqualTo(name);
    assertThat(requester.version()).isEqualTo(version);
  }

  @Test
  void longerPartsAreCutAfter256CharactersNeverInsideOne() {
    Requester requester = new Requester("n".repeat(257), "v" + "\ud83d\ude00".repeat(300));

    assertThat(requester.name()).isEqualTo("n".repeat(256));
    assertThat(requester.version()).isEqualTo("v" + "\ud83d\ude00".repeat(255));
  }
}
