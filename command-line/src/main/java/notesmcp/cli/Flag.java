package notesmcp.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One flag of a command line, read by the rule every mode follows (docs/behaviour.md, "Command
 * line"): one or two dashes, and a value either as the next word or after {@code =}: {@code -root
 * W}, {@code --root W}, {@code --root=W}. A final class, not a record: it is read on the start
 * path, which links no {@code invokedynamic} (StartPathIT).
 */
public final class Flag {
  /** The name without dashes or value: {@code root} for {@code --root=W}. */
  public final String name;

  /** The value, or null for a switch. */
  public final String value;

  /** How many words of the command line the flag took: 2 when its value was the next word. */
  public final int words;

  /** The command-line word the value came from ({@code --root=W} or {@code W}), or null. */
  private final String source;

  private Flag(String name, String value, int words, String source) {
    this.name = name;
    this.value = value;
    this.words = words;
    this.source = source;
  }

  /**
   * Reads the flag at {@code args[index]}. {@code switches} take no value, {@code valued} take one;
   * any other name is unknown ("unknown flag W", then {@code unknownSuffix}, such as " for chat").
   */
  public static Flag read(
      List<String> args, int index, Set<String> switches, Set<String> valued, String unknownSuffix)
      throws UsageException {
    String word = args.get(index);
    if (!word.startsWith("-") || word.equals("-") || word.equals("--")) {
      throw new UsageException("unexpected argument \"" + word + "\"");
    }
    String name = word.startsWith("--") ? word.substring(2) : word.substring(1);
    String inline = null;
    int equals = name.indexOf('=');
    if (equals >= 0) {
      inline = name.substring(equals + 1);
      name = name.substring(0, equals);
    }
    if (switches.contains(name)) {
      if (inline != null) {
        throw new UsageException(word.substring(0, word.indexOf('=')) + " takes no value");
      }
      return new Flag(name, null, 1, null);
    }
    if (!valued.contains(name)) {
      throw new UsageException("unknown flag " + word + unknownSuffix);
    }
    if (inline != null) {
      return new Flag(name, inline, 1, word);
    }
    if (index + 1 >= args.size()) {
      throw new UsageException(word + " needs a value");
    }
    return new Flag(name, args.get(index + 1), 2, args.get(index + 1));
  }

  /**
   * The value as the path of a file or folder ({@code -root}, {@code -proposals}, {@code -policy}).
   * A usage error names the flag when the value is empty (an unset shell variable must not silently
   * mean the working directory: that is {@code .}), and when this JVM cannot name the file it
   * means: the word's bytes on the command line are not valid in the JVM's file-name encoding (its
   * {@code sun.jnu.encoding}, from the locale), the path holds a character that encoding lacks, or
   * the path is relative and the working directory's own name is not valid in it. Any other path is
   * returned as given; whether it exists is for its user to say.
   */
  public Path path() throws UsageException {
    if (value.isEmpty()) {
      throw new UsageException(
          "-" + name + " needs a path, not an empty word (the working directory is \".\")");
    }
    if (lost(source)) {
      throw unnamable("its bytes are not valid " + encoding());
    }
    Path path;
    try {
      path = Path.of(value);
    } catch (InvalidPathException e) {
      throw unnamable("it holds a character that " + encoding() + " cannot encode");
    }
    if (!path.isAbsolute() && workingDirectoryLost()) {
      throw new UsageException(
          "-"
              + name
              + " "
              + shown(value)
              + ": the working directory's name is not valid "
              + encoding()
              + ", this JVM's file-name encoding, so a relative path cannot be resolved; give an"
              + " absolute path");
    }
    return path;
  }

  /**
   * The value as a command line ({@code -server-command}), returned as given once it holds at least
   * one word ({@link CommandLine#split}) and each word can be passed to the program in this JVM's
   * file-name encoding, which is also what a new process's arguments are encoded in.
   */
  public String command() throws UsageException {
    List<String> words = CommandLine.split(value);
    if (words.isEmpty() || words.get(0).isEmpty()) {
      throw new UsageException("-" + name + " needs a command, not an empty one");
    }
    if (lost(source)) {
      throw unnamable("its bytes are not valid " + encoding());
    }
    CharsetEncoder encoder = charset().newEncoder();
    for (String word : words) {
      if (!encoder.canEncode(word)) {
        throw unnamable("it holds a character that " + encoding() + " cannot encode");
      }
    }
    return value;
  }

  private UsageException unnamable(String why) {
    String hint =
        charset().equals(StandardCharsets.UTF_8)
            ? "; such a path cannot be named by this program: rename it"
            : "; run notes-mcp in a UTF-8 locale (such as LC_ALL=C.UTF-8, which the notes-mcp"
                + " launchers choose themselves when the locale has only ASCII, where that locale"
                + " is installed)";
    return new UsageException(
        "-"
            + name
            + " "
            + shown(value)
            + ": "
            + why
            + ", this JVM's file-name encoding (from the locale: LC_ALL, LC_CTYPE or LANG)"
            + hint);
  }

  /** What the JVM decoded, each character it could not decode shown as {@code ?}. */
  private static String shown(String text) {
    return "\"" + text.replace('\uFFFD', '?') + "\"";
  }

  /** The JVM's file-name encoding, by which command-line words and paths become text. */
  private static Charset charset() {
    try {
      return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
    } catch (IllegalArgumentException e) {
      return Charset.defaultCharset();
    }
  }

  private static String encoding() {
    return charset().name();
  }

  /**
   * Whether {@code word}, as this JVM received it, stands for bytes on its command line that are
   * not valid in its file-name encoding. The JVM decodes such bytes to U+FFFD, so only a word that
   * holds U+FFFD needs the check: its bytes are looked up in {@code /proc/self/cmdline}. A word
   * that cannot be found there (or without /proc) is taken as undecodable.
   */
  private static boolean lost(String word) {
    if (word == null || word.indexOf('\uFFFD') < 0) {
      return false;
    }
    Charset charset = charset();
    try {
      for (byte[] raw : commandLine()) {
        if (new String(raw, charset).equals(word)) {
          return !valid(raw, charset);
        }
      }
    } catch (IOException e) {
      // reported as undecodable below
    }
    return true;
  }

  private static boolean valid(byte[] bytes, Charset charset) {
    try {
      charset
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  /** This process's command line as the kernel holds it: each word's own bytes. */
  private static List<byte[]> commandLine() throws IOException {
    byte[] all = Files.readAllBytes(Path.of("/proc/self/cmdline"));
    List<byte[]> words = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < all.length; i++) {
      if (all[i] == 0) {
        byte[] word = new byte[i - start];
        System.arraycopy(all, start, word, 0, word.length);
        words.add(word);
        start = i + 1;
      }
    }
    return words;
  }

  /**
   * Whether the JVM's idea of the working directory ({@code user.dir}, decoded from the real one's
   * bytes) names some other folder, as it does when those bytes are not valid in its encoding.
   */
  private static boolean workingDirectoryLost() {
    String dir = System.getProperty("user.dir", "");
    if (dir.indexOf('\uFFFD') < 0) {
      return false;
    }
    try {
      return !Path.of(dir).equals(Files.readSymbolicLink(Path.of("/proc/self/cwd")));
    } catch (InvalidPathException | IOException e) {
      return true;
    }
  }
}
