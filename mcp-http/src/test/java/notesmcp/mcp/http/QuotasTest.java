package notesmcp.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuotasTest {
  @Test
  void eachCallersBudgetsAreItsOwn() {
    Quotas quotas = new Quotas(2, 1, 3, 1);
    Quotas.Account phone = quotas.account("phone");
    Quotas.Account laptop = quotas.account("laptop");

    for (int i = 0; i < 3; i++) {
      assertThat(quotas.spend(phone, "phone", false)).isNull();
    }
    Quotas.Exceeded spent = quotas.spend(phone, "phone", false);
    assertThat(spent.reason()).startsWith("call budget spent: phone may make at most 3");
    assertThat(spent.retryAfterSeconds()).isBetween(1L, 3600L);
    assertThat(quotas.spend(laptop, "laptop", true)).isNull();
    assertThat(quotas.spend(laptop, "laptop", true).reason()).startsWith("proposal budget spent");
    assertThat(quotas.spend(laptop, "laptop", false))
        .as("a refused proposal spends nothing")
        .isNull();

    assertThat(quotas.enter(phone, "phone")).isNull();
    assertThat(quotas.enter(phone, "phone")).isNull();
    assertThat(quotas.enter(phone, "phone")).isNotNull();
    quotas.leave(phone);
    assertThat(quotas.enter(phone, "phone")).isNull();

    assertThat(quotas.openStream(phone, "phone")).isNull();
    assertThat(quotas.openStream(phone, "phone")).isNotNull();
    quotas.closeStream(phone);
    assertThat(quotas.openStream(phone, "phone")).isNull();
    assertThat(quotas.account(null)).isSameAs(quotas.account(""));
  }
}
