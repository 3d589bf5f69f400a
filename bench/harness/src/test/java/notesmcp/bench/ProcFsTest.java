package notesmcp.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ProcFsTest {
  @Test
  void readsAKilobyteLineOfAStatusFile() {
    String status = "Name:\tjava\nVmHWM:\t   48432 kB\nVmRSS:\t   47000 kB\nThreads:\t12\n";
    assertThat(ProcFs.statusBytes(status, "VmHWM")).isEqualTo(48432L * 1024);
    assertThat(ProcFs.statusBytes(status, "VmRSS")).isEqualTo(47000L * 1024);
    assertThatThrownBy(() -> ProcFs.statusBytes(status, "VmSwap"))
        .isInstanceOf(BenchFailure.class)
        .hasMessageContaining("no VmSwap");
  }

  @Test
  void cpuTimeGrowsWithWork() {
    long before = ProcFs.selfCpuNanos();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
    long spin = 0;
    while (System.nanoTime() < deadline) {
      spin++;
    }
    assertThat(spin).isPositive();
    // At least a few clock ticks of the 200 ms spent on a CPU, however busy the machine.
    assertThat(ProcFs.selfCpuNanos() - before).isGreaterThanOrEqualTo(10_000_000L);
  }

  @Test
  void aProcessIsMeasuredWithItsChildren() throws Exception {
    // A shell whose busy child does the work: the child's CPU time and memory count for the shell.
    Process shell = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' & wait").start();
    try {
      ProcessHandle handle = shell.toHandle();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (System.nanoTime() < deadline
          && (handle.descendants().count() == 0 || ProcFs.cpuNanos(handle) <= ownCpu(handle))) {
        Thread.sleep(50);
      }
      assertThat(ProcFs.cpuNanos(handle)).isGreaterThan(ownCpu(handle));
      String own = Files.readString(Path.of("/proc", Long.toString(shell.pid()), "status"));
      assertThat(ProcFs.statusBytes(handle, "VmRSS"))
          .isGreaterThan(ProcFs.statusBytes(own, "VmRSS"));
      assertThat(ProcFs.commands(handle)).startsWith("sh + ");
    } finally {
      shell.descendants().forEach(ProcessHandle::destroyForcibly);
      shell.destroyForcibly().waitFor();
    }
  }

  private static long ownCpu(ProcessHandle process) {
    return process.info().totalCpuDuration().orElseThrow().toNanos();
  }

  @Test
  void readsTheLoadAverage() {
    assertThat(ProcFs.loadAverage()).matches("[0-9.]+ [0-9.]+ [0-9.]+");
  }
}
