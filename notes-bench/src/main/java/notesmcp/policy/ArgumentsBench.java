package notesmcp.policy;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Argument check alone: the package-private {@link Arguments} (hence this package) decoding {@code
 * {"path":"notes.txt"}} strictly from its raw text, refusing unknown keys and reading the one
 * string, as {@code Notes.execute} does for {@code read_note} before it touches any file.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ArgumentsBench {
  private static final Set<String> PATH_ONLY = Set.of("path");

  private final String raw = "{\"path\":\"notes.txt\"}";

  @Benchmark
  public String decodeAndCheck() throws Arguments.Rejected {
    return Arguments.decode(raw).allowOnly(Notes.READ_NOTE, PATH_ONLY).string("path");
  }
}
