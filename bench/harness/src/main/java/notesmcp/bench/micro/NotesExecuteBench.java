package notesmcp.bench.micro;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.tools.NoteAccess;
import notesmcp.policy.tools.Outcome;
import notesmcp.policy.vault.Workspace;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The policy's whole call: {@link NoteAccess#execute} of {@code read_note {"path":"notes.txt"}} on
 * a real workspace folder: the lock and budget, the strict argument decode and check, the name
 * lookup, the file checks and read (lstat, open O_NOFOLLOW, fstat, read, UTF-8 decode) and the
 * result's JSON text: everything the policy does for one call, through its public API.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class NotesExecuteBench {
  private Path root;
  private NoteAccess notes;

  @Setup
  public void setUp() throws IOException {
    root = Samples.workspace();
    notes =
        new NoteAccess(
            Policy.defaults().withMaxCalls(Integer.MAX_VALUE),
            Workspace.at(root),
            Clock.systemUTC());
  }

  @TearDown
  public void tearDown() {
    Samples.delete(root);
  }

  @Benchmark
  public Outcome readNote() {
    Outcome outcome = notes.execute(NoteAccess.READ_NOTE, "{\"path\":\"notes.txt\"}", () -> false);
    if (!(outcome instanceof Outcome.Answer)) {
      throw new IllegalStateException(outcome.text());
    }
    return outcome;
  }
}
