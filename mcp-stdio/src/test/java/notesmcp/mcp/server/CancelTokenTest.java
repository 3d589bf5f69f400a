package notesmcp.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CancelTokenTest {
  @Test
  void answersCancelledOnlyAfterACancelAndKeepsTheReason() {
    CancelToken token = new CancelToken();
    assertThat(token.getAsBoolean()).isFalse();
    assertThat(token.isCancelled()).isFalse();
    assertThat(token.reason()).isNull();

    token.cancel("user stopped it");

    assertThat(token.getAsBoolean()).isTrue();
    assertThat(token.isCancelled()).isTrue();
    assertThat(token.reason()).isEqualTo("user stopped it");
  }
}
