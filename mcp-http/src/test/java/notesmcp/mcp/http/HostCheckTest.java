package notesmcp.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostCheckTest {
  private final HostCheck loopback = new HostCheck("127.0.0.1", 8765, List.of());

  @Test
  void aLoopbackBindAcceptsItsThreeNamesOnItsPortOnly() {
    for (String host :
        List.of("127.0.0.1:8765", "localhost:8765", "[::1]:8765", "LocalHost:8765")) {
      assertThat(loopback.problem(host, null)).as(host).isNull();
    }
    for (String host :
        List.of(
            "127.0.0.1:8766",
            "127.0.0.1",
            "localhost",
            "evil.example:8765",
            "[0:0:0:0:0:0:0:1]:8765",
            "127.0.0.2:8765",
            "")) {
      assertThat(loopback.problem(host, null)).as(host).isNotNull();
    }
    assertThat(loopback.problem(null, null)).isEqualTo("the request has no Host");
  }

  @Test
  void anOriginMustBeHttpOrHttpsOfAnAllowedName() {
    assertThat(loopback.problem("127.0.0.1:8765", "http://localhost:8765")).isNull();
    assertThat(loopback.problem("127.0.0.1:8765", "https://[::1]:8765")).isNull();
    for (String origin :
        List.of(
            "null", "http://evil.example", "http://localhost:8766", "ftp://localhost:8765", "")) {
      assertThat(loopback.problem("127.0.0.1:8765", origin)).as(origin).isNotNull();
    }
  }

  @Test
  void allowedHostsExtendBothListsAndAnotherAddressIsItsOwnName() {
    HostCheck proxied = new HostCheck("127.0.0.1", 8765, List.of("notes.example.org"));
    assertThat(proxied.problem("notes.example.org", "https://notes.example.org")).isNull();
    assertThat(proxied.problem("notes.example.org:443", null)).isNotNull();

    HostCheck wide = new HostCheck("192.168.1.5", 8443, List.of("notes.example.org:8443"));
    assertThat(wide.problem("192.168.1.5:8443", null)).isNull();
    assertThat(wide.problem("localhost:8443", null)).isNotNull();
    assertThat(wide.problem("notes.example.org:8443", "https://notes.example.org:8443")).isNull();
    assertThat(new HostCheck("::", 9000, List.of()).problem("[::]:9000", null)).isNull();
  }
}
