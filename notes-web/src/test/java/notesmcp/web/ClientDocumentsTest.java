package notesmcp.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Which addresses a client ID metadata document may be fetched from, and that the rule is applied
 * where the connection is made: a server on this machine, asked for by its IP literal while
 * loopback addresses are refused, never sees a connection.
 */
class ClientDocumentsTest {
  private static String problem(String address, boolean loopback) throws Exception {
    return ClientDocuments.problem(InetAddress.getByName(address), loopback);
  }

  @Test
  void privateLinkLocalReservedAndEmbeddedAddressesAreRefusedPublicOnesTaken() throws Exception {
    for (String refused :
        new String[] {
          "10.0.0.1",
          "172.16.5.4",
          "192.168.1.1",
          "169.254.169.254",
          "100.64.0.1",
          "0.0.0.0",
          "224.0.0.1",
          "240.0.0.1",
          "255.255.255.255",
          "198.18.0.1",
          "192.0.0.8",
          "fc00::1",
          "fd12:3456::1",
          "fe80::1",
          "::",
          "::ffff:10.0.0.1",
          "2002:0a00:0001::1",
          "64:ff9b::a00:1",
          "::10.0.0.1",
          "2001:db8::1",
          "ff02::1"
        }) {
      assertThat(problem(refused, true)).as(refused).isNotNull();
    }
    assertThat(problem("127.0.0.1", false)).isEqualTo("a loopback address");
    assertThat(problem("::1", false)).isEqualTo("a loopback address");
    assertThat(problem("127.0.0.1", true)).isNull();
    for (String taken : new String[] {"93.184.215.14", "1.1.1.1", "2606:4700::1111"}) {
      assertThat(problem(taken, false)).as(taken).isNull();
    }
  }

  @Test
  void anAddressRefusedIsNeverConnectedToEvenWrittenAsALiteral() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    AtomicInteger requests = new AtomicInteger();
    server.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.start();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    // As for an https issuer: http is refused before resolving, so ask the resolver directly too.
    ClientDocuments strict =
        new ClientDocuments(false, new PrintStream(log, true, StandardCharsets.UTF_8));
    ClientDocuments.PublicOnly resolver = new ClientDocuments.PublicOnly(false);
    ClientDocuments plainHttp =
        new ClientDocuments(true, false, new PrintStream(log, true, StandardCharsets.UTF_8));
    try {
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/client.json";
      assertThatThrownBy(() -> strict.fetch(url, Instant.now()))
          .hasMessageContaining("not an https URL");
      java.util.concurrent.CompletableFuture<java.util.List<InetSocketAddress>> resolved =
          new java.util.concurrent.CompletableFuture<>();
      resolver.resolve(
          "127.0.0.1",
          server.getAddress().getPort(),
          java.util.Map.of(),
          org.eclipse.jetty.util.Promise.from(resolved));
      assertThatThrownBy(resolved::get).hasMessageContaining("a loopback address");
      // The whole fetch, with http allowed and loopback not: Jetty's client asks the resolver
      // even for an IP literal, and connects nowhere.
      assertThatThrownBy(() -> plainHttp.fetch(url, Instant.now()))
          .hasMessageContaining("a loopback address");
      assertThat(requests.get()).isZero();
    } finally {
      plainHttp.stop();
      strict.stop();
      server.stop(0);
    }
  }
}
