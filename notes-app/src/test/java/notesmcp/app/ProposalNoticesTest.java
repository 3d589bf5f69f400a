package notesmcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import notesmcp.policy.proposals.Proposal;
import notesmcp.policy.rules.NoteName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the notices find a desktop and a program, and what the desktop notification says
 * (docs/review-page.md, "Telling the person"); {@code NotifyIT} runs them end to end.
 */
class ProposalNoticesTest {
  @TempDir Path dir;

  @Test
  void aSessionBusIsAnAddressOrTheRuntimeFoldersSocket() throws Exception {
    assertThat(ProposalNotices.sessionBus(Map.of("DBUS_SESSION_BUS_ADDRESS", "unix:path=/x")))
        .isTrue();
    assertThat(ProposalNotices.sessionBus(Map.of("DBUS_SESSION_BUS_ADDRESS", ""))).isFalse();
    assertThat(ProposalNotices.sessionBus(Map.of())).isFalse();
    assertThat(ProposalNotices.sessionBus(Map.of("XDG_RUNTIME_DIR", dir.toString()))).isFalse();
    Files.createDirectory(dir.resolve("bus"));
    assertThat(ProposalNotices.sessionBus(Map.of("XDG_RUNTIME_DIR", dir.toString()))).isFalse();
    Path runtime = Files.createDirectory(dir.resolve("runtime"));
    try (ServerSocketChannel bus = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      bus.bind(UnixDomainSocketAddress.of(runtime.resolve("bus")));
      assertThat(ProposalNotices.sessionBus(Map.of("XDG_RUNTIME_DIR", runtime.toString())))
          .isTrue();
    }
  }

  @Test
  void aProgramIsAnExecutableFileByPathOrOnPath() throws Exception {
    Path bin = Files.createDirectory(dir.resolve("bin"));
    Path tool = Files.writeString(bin.resolve("tool"), "#!/bin/sh\n");
    Path plain = Files.writeString(bin.resolve("plain"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwx------"));
    Files.createDirectory(bin.resolve("folder"));
    Map<String, String> env = Map.of("PATH", "/nonexistent::" + bin);
    assertThat(ProposalNotices.program("tool", env)).isEqualTo(tool);
    assertThat(ProposalNotices.program(tool.toString(), env)).isEqualTo(tool);
    assertThat(ProposalNotices.program("plain", env)).isNull();
    assertThat(ProposalNotices.program(plain.toString(), env)).isNull();
    assertThat(ProposalNotices.program("folder", env)).isNull();
    assertThat(ProposalNotices.program("tool", Map.of())).isNull();
    assertThat(ProposalNotices.program("", env)).isNull();
  }

  @Test
  void theDesktopBodyIsVisibleTextWithItsMarkupEscapedAndNeverAnOption() {
    Proposal proposal =
        new Proposal(
            "0f8b8b4e-55d5-4c1e-9b7e-3c1f7d2a9e10",
            NoteName.checked("-<b>x</b> & y.md"),
            "x",
            Instant.parse("2026-01-02T03:04:05Z"),
            null);
    assertThat(ProposalNotices.desktopBody(proposal, "https://h/review"))
        .isEqualTo("New note -&lt;b&gt;x&lt;/b&gt; &amp; y.md\nReview it at https://h/review");
    assertThat(ProposalNotices.desktopBody(proposal, ""))
        .isEqualTo("New note -&lt;b&gt;x&lt;/b&gt; &amp; y.md");
  }
}
