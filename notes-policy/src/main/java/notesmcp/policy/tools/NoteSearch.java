package notesmcp.policy.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A full-text search over the notes {@code read_note} may return: what the tool {@code
 * search_notes} needs of an engine (docs/behaviour.md, "search_notes"). The engine lives outside
 * this module (notes-search, loaded by the program as a server starts, or on the first search);
 * this module defines the tool, checks its arguments, formats its result, and gives the engine a
 * {@link Corpus}: the only way the engine sees the workspace, through the same policy and the same
 * careful read as {@code read_note}.
 *
 * <p>An engine returns a hit only for a note it has just read again through {@link Corpus#read} and
 * found to match the query in the text that read returned: a deleted, replaced, moved or excluded
 * note never appears, whatever its index still holds.
 */
public interface NoteSearch {
  /** Hits for one query, best first: by score (rounded), then path in code-point order. */
  List<Hit> search(String query, String folder, int limit) throws Refused;

  /**
   * As {@link #search(String, String, int)}, answered by {@code answerBy} (a {@link
   * System#nanoTime} instant) when the index is not built yet: with the hits of a scan if one comes
   * in time, else refused with how far along the build is (docs/behaviour.md, "search_notes"). The
   * default: an engine whose index is always there.
   */
  default List<Hit> search(String query, String folder, int limit, long answerBy) throws Refused {
    return search(query, folder, limit);
  }

  /**
   * What the engine does ahead of the first search, called once in the background as a server
   * starts (after the catalog's first enumeration): open a kept index and make its first look, or
   * start building one. The default: nothing.
   */
  default void prepare() {}

  /**
   * Brings the index up to date with the corpus now and keeps it (on disk, when it is kept there),
   * waiting for that: what {@code notes-mcp index} does. Returns how many notes it read and
   * indexed, or {@link #HELD_BY_A_SERVER}.
   */
  int refresh() throws Refused;

  /** As {@link #refresh()}, telling {@code progress} how far along it is while it works. */
  default int refresh(Progress progress) throws Refused {
    return refresh();
  }

  /**
   * What {@link #refresh} returns when a server holds the kept index: it brings the index up to
   * date itself before its searches, so there is nothing to do.
   */
  int HELD_BY_A_SERVER = -1;

  /** Told how far along a build is, a few times a second at most, from any thread. */
  interface Progress {
    /**
     * @param read the notes read and indexed so far
     * @param total the notes to read, 0 while they are being counted
     * @param millisLeft an estimate of the time left, or -1 while there is none
     * @param other whether the build is another process's, which this one waits for
     */
    void indexed(int read, int total, long millisLeft, boolean other);
  }

  /**
   * The best {@code count} notes for one query, found by reading every note once without an index
   * and scored as an index of exactly those notes would score them; null when more notes match than
   * a scan ranks within its bounds (then only an index can). What {@code notes-mcp index -scan}
   * answers while a first-ever index is built (docs/behaviour.md, "search_notes"). The default: an
   * engine that cannot scan.
   */
  default List<Ranked> scan(String query, String folder, int count) throws Refused {
    throw new Refused("this search engine cannot scan");
  }

  /** A note as a scan ranked it: its path and its score before rounding. */
  record Ranked(String path, float score) {}

  /**
   * How a server's queries reach the child that ranks them by a scan while the index is built
   * ({@code notes-mcp index -scan}), and how each ranking comes back (docs/behaviour.md,
   * "search_notes"). One line each, in UTF-8: on the child's stdin, for each query, the query, the
   * folder ({@code -} for none, else {@code =} and the folder) and the count wanted, the two
   * strings URL-encoded (so a line break in a query stays in its line); on its stdout, for each
   * query in turn, {@code many} (too many matches to rank), or {@code ranked N} and N lines of a
   * score (a float's bits in hex), a tab and a path. A path from the child only names a candidate:
   * the server reads it again through its own policy.
   */
  final class Exchange {
    private Exchange() {}

    /** The child's ranking; null for {@code many} or when it ends without one. */
    public static List<Ranked> read(BufferedReader out, int count) throws IOException {
      String head = out.readLine();
      if (head == null || head.equals("many")) {
        return null;
      }
      if (!head.startsWith("ranked ")) {
        throw new IOException("it begins with neither many nor ranked");
      }
      int n = Integer.parseInt(head.substring("ranked ".length()));
      if (n < 0 || n > count) {
        throw new IOException("it ranks " + n + " notes, not at most " + count);
      }
      List<Ranked> ranked = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        String line = out.readLine();
        int tab = line == null ? -1 : line.indexOf('\t');
        if (tab < 0) {
          throw new IOException("it ends within its ranking");
        }
        float score = Float.intBitsToFloat(Integer.parseUnsignedInt(line.substring(0, tab), 16));
        ranked.add(new Ranked(line.substring(tab + 1), score));
      }
      return ranked;
    }

    /**
     * What the child writes for its ranking (see the class comment); the inverse of {@link #read}.
     */
    public static String write(List<Ranked> ranked) {
      if (ranked == null) {
        return "many\n";
      }
      StringBuilder text = new StringBuilder("ranked ").append(ranked.size()).append('\n');
      for (Ranked r : ranked) {
        text.append(Integer.toHexString(Float.floatToIntBits(r.score())))
            .append('\t')
            .append(r.path())
            .append('\n');
      }
      return text.toString();
    }

    /** A query that is not three lines of the form {@link #writeQuery} writes. */
    public static final class Incomplete extends IOException {
      private static final long serialVersionUID = 1L;

      Incomplete() {
        super("a query to scan for is incomplete");
      }
    }

    /** One query as the child reads it: the query, the folder or null, the count. */
    public record Query(String query, String folder, int count) {}

    /** What the server writes on the child's stdin for {@code query} (see the class comment). */
    public static String writeQuery(Query query) {
      String folder = query.folder() == null ? "-" : "=" + encode(query.folder());
      return encode(query.query()) + "\n" + folder + "\n" + query.count() + "\n";
    }

    /**
     * The next query on the child's stdin; null at its end; the inverse of {@link #writeQuery}.
     *
     * @throws Incomplete if it is incomplete, or its count is not 1 to 999 (a scan's collector is
     *     sized by it)
     * @throws IOException if stdin cannot be read
     */
    public static Query readQuery(BufferedReader in) throws IOException {
      String query = in.readLine();
      if (query == null) {
        return null;
      }
      String folder = in.readLine();
      String count = in.readLine();
      if (folder == null
          || count == null
          || !(folder.equals("-") || folder.startsWith("="))
          || !count.matches("[1-9][0-9]{0,2}")) {
        throw new Incomplete();
      }
      return new Query(
          decode(query),
          folder.equals("-") ? null : decode(folder.substring(1)),
          Integer.parseInt(count));
    }

    public static String encode(String text) {
      return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    public static String decode(String line) {
      return URLDecoder.decode(line, StandardCharsets.UTF_8);
    }
  }

  /** One hit; {@code score} is already rounded (see the engine), {@code snippet} plain text. */
  record Hit(String path, double score, String snippet) {}

  /** A query the engine will not run, and why, in words for the client. */
  final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    public Refused(String reason) {
      super(reason);
    }
  }

  /**
   * The cache folder a kept index lives under (docs/behaviour.md, "search_notes", "Where the index
   * lives"): {@code $XDG_CACHE_HOME} when it is an absolute path, else {@code $HOME/.cache} when
   * {@code HOME} is one; null when neither is (the index is then kept in memory). Said once here,
   * for the engine that keeps the index there and for the start-up that refuses it inside the
   * workspace.
   */
  static Path cacheFolder(Map<String, String> environment) {
    String xdg = environment.get("XDG_CACHE_HOME");
    if (xdg != null && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg);
    }
    String home = environment.get("HOME");
    if (home == null || !Path.of(home).isAbsolute()) {
      return null;
    }
    return Path.of(home, ".cache");
  }

  /** Makes the engine, as a server starts or on the first search; the program passes one in. */
  interface Factory {
    /**
     * @throws Refused when the engine cannot be had (its module missing); the reason is the tool's
     *     refusal text
     */
    NoteSearch open(Corpus corpus) throws Refused;
  }

  /**
   * A file's identity as the careful read saw it, or as a look at its name showed it: two looks
   * with equal identities are taken to be the same content (the index is refreshed when they
   * differ; a hit is still read again before it is returned).
   *
   * @param changed the change time in nanoseconds since the epoch, or -1 when not known
   */
  record Identity(long device, long inode, long size, long changed) {}

  /** A note's text as the careful read returned it, and the identity of the file it read. */
  record Note(String text, Identity identity) {}

  /** What an engine may see of the workspace. Thread-safe. */
  interface Corpus {
    /**
     * What a kept index is for: the workspace's root (its real path and identity) and the policy
     * (its allowed names or patterns and size limit), as text. Two corpora with the same key may
     * share an index; any change of root or policy gives another key.
     */
    String key();

    /** The root's real path, for the engine's log and for pruning kept indexes. */
    String root();

    /** Every note {@code read_note} may return now, in code-point order. */
    List<String> notes();

    /** The note's identity from a look at its name (links not followed), or null if not a note. */
    Identity look(String path);

    /**
     * The note read as {@code read_note} reads it (policy, careful checks, size limit, UTF-8), or
     * null when {@code read_note} would refuse it now.
     */
    Note read(String path);

    /** The most bytes one note may have: what the engine may hold in memory for one note. */
    int maxNoteBytes();
  }
}
