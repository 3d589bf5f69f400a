package notesmcp.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import notesmcp.mcp.Protocol.Implementation;
import org.junit.jupiter.api.Test;

/**
 * A request read right behind an {@code initialize} that another thread is still answering waits
 * for that answer, so it is served in the session the client negotiated (the race {@code
 * ServerTest.initializeNegotiatesALegacyVersionAndThenServesWithoutMeta} met on a loaded machine:
 * the lead passed on while {@code initialize} was being answered, and {@code tools/list} found no
 * session yet).
 */
class SessionTest {
  @Test
  void aRequestBehindAnInitializeBeingAnsweredWaitsForItsVersion() throws Exception {
    Session session = new Session(null);
    session.initializeRead();
    CompletableFuture<String> behind =
        CompletableFuture.supplyAsync(() -> session.versionOnceInitialized(10_000));

    Thread.sleep(50);
    assertThat(behind).isNotDone();
    session.initialized("2025-06-18", new Implementation("old", "0"));
    session.initializeAnswered();

    assertThat(behind.get(5, TimeUnit.SECONDS)).isEqualTo("2025-06-18");
  }

  @Test
  void anInitializeRefusedLeavesNoVersionAndReleasesWhoWaits() throws Exception {
    Session session = new Session(null);
    session.initializeRead();
    CompletableFuture<String> behind =
        CompletableFuture.supplyAsync(() -> session.versionOnceInitialized(10_000));

    session.initializeAnswered();

    assertThat(behind.get(5, TimeUnit.SECONDS)).isNull();
  }

  @Test
  void withoutAnInitializeBeingAnsweredNothingWaits() {
    Session session = new Session(null);
    long start = System.nanoTime();

    assertThat(session.versionOnceInitialized(10_000)).isNull();
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
  }
}
