package notesmcp.markdown;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The notes a link can resolve to, and how it resolves, as Obsidian resolves links
 * (docs/knowledge.md, "How a link resolves"). Holds the notes' vault-relative paths (the caller's
 * strings) indexed by their lower-cased file names: adding or removing a path is one map update,
 * resolving a link looks at the notes of one file name only. Not safe for concurrent use: a caller
 * that changes it while others resolve holds its own lock, as for a {@link HashMap}.
 */
public final class LinkTargets {
  /**
   * Lower-cased file name to its paths, each followed by itself lower-cased ({@code Locale.ROOT};
   * the same string when that changes nothing): {@code [path, lower, path, lower, …]}. Resolving
   * compares a link's path with every note of its file name, so each note's lower case is made
   * once, when it is added, not at every comparison.
   */
  private final Map<String, String[]> byName = new HashMap<>();

  private int size;

  /** An empty set of notes. */
  public LinkTargets() {}

  /** The set of {@code paths}. */
  public static LinkTargets of(Collection<String> paths) {
    LinkTargets targets = new LinkTargets();
    for (String path : paths) {
      targets.add(path);
    }
    return targets;
  }

  public int size() {
    return size;
  }

  /** Adds a note's path; false when it was there. */
  public boolean add(String path) {
    String key = key(path);
    String[] held = byName.get(key);
    int at = held == null ? 0 : held.length;
    if (held != null) {
      for (int i = 0; i < held.length; i += 2) {
        if (held[i].equals(path)) {
          return false;
        }
      }
    }
    String[] more = held == null ? new String[2] : Arrays.copyOf(held, held.length + 2);
    String lower = path.toLowerCase(Locale.ROOT);
    more[at] = path;
    more[at + 1] = lower.equals(path) ? path : lower;
    byName.put(key, more);
    size++;
    return true;
  }

  /** Removes a note's path; false when it was not there. */
  public boolean remove(String path) {
    String key = key(path);
    String[] held = byName.get(key);
    if (held == null) {
      return false;
    }
    for (int at = 0; at < held.length; at += 2) {
      if (held[at].equals(path)) {
        if (held.length == 2) {
          byName.remove(key);
        } else {
          String[] fewer = new String[held.length - 2];
          System.arraycopy(held, 0, fewer, 0, at);
          System.arraycopy(held, at + 2, fewer, at, held.length - at - 2);
          byName.put(key, fewer);
        }
        size--;
        return true;
      }
    }
    return false;
  }

  public boolean contains(String path) {
    String[] held = byName.get(key(path));
    if (held != null) {
      for (int i = 0; i < held.length; i += 2) {
        if (held[i].equals(path)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The note {@code link} of the note {@code from} resolves to, or null ({@link #resolve}). */
  public String resolve(Link link, String from) {
    return resolve(link.path(), from);
  }

  /**
   * The note that the link path {@code linkPath} (a link's {@link Link#path}) written in the note
   * {@code from} resolves to, or null when none of these notes is it:
   *
   * <ol>
   *   <li>an empty path is the note {@code from} itself ({@code [[#Heading]]});
   *   <li>the path is NFC-normalized, and compared with the notes' paths ignoring case;
   *   <li>the path as written is tried first, then with {@code .md} appended (when it does not end
   *       in {@code .md});
   *   <li>a path starting with {@code ./} or {@code ../} is relative to {@code from}'s folder and
   *       names exactly one path (none when it climbs above the vault); one starting with {@code /}
   *       is the path from the vault's root, exactly;
   *   <li>any other path matches every note whose path is it or ends with {@code /} and it; of
   *       those, the note at exactly that path wins, then the note at that path from {@code from}'s
   *       folder, then the one with the shortest path (in UTF-16 units, as JavaScript counts), then
   *       one whose case matches the link's, then the first in code-point order.
   * </ol>
   */
  public String resolve(String linkPath, String from) {
    if (linkPath.isEmpty()) {
      return from;
    }
    String path = Normalizer.normalize(linkPath, Normalizer.Form.NFC);
    String found = resolveName(path, from);
    if (found == null && !path.toLowerCase(Locale.ROOT).endsWith(".md")) {
      found = resolveName(path + ".md", from);
    }
    return found;
  }

  /**
   * The lower-cased file names of the notes the link path {@code linkPath} written in {@code from}
   * may resolve to, whatever notes the set holds: {@link #resolve} returns either null or a note
   * whose file name, lower-cased, is one of these (one or two: the path as written, and with {@code
   * .md} appended). For an index of links by the file name they may name, so that the links that
   * may resolve to a note are found among the few that name its file name.
   */
  public static List<String> fileNames(String linkPath, String from) {
    List<String> names = new ArrayList<>(2);
    if (linkPath.isEmpty()) {
      names.add(key(from));
      return names;
    }
    String path = Normalizer.normalize(linkPath, Normalizer.Form.NFC);
    addFileName(names, path, from);
    if (!path.toLowerCase(Locale.ROOT).endsWith(".md")) {
      addFileName(names, path + ".md", from);
    }
    return names;
  }

  private static void addFileName(List<String> names, String path, String from) {
    String named = path;
    if (path.startsWith("./") || path.startsWith("../")) {
      named =
          relative(from.lastIndexOf('/') < 0 ? "" : from.substring(0, from.lastIndexOf('/')), path);
      if (named == null) {
        return;
      }
    }
    String name = key(named);
    if (!names.contains(name)) {
      names.add(name);
    }
  }

  private String resolveName(String path, String from) {
    String folder = from.lastIndexOf('/') < 0 ? "" : from.substring(0, from.lastIndexOf('/'));
    if (path.startsWith("./") || path.startsWith("../")) {
      String exact = relative(folder, path);
      return exact == null ? null : exactly(exact);
    }
    if (path.startsWith("/")) {
      int start = 0;
      while (start < path.length() && path.charAt(start) == '/') {
        start++;
      }
      return exactly(path.substring(start));
    }
    String[] held = byName.get(key(path));
    if (held == null) {
      return null;
    }
    String lower = path.toLowerCase(Locale.ROOT);
    String besideLower = folder.isEmpty() ? lower : (folder + "/" + path).toLowerCase(Locale.ROOT);
    String best = null;
    int bestRank = Integer.MAX_VALUE;
    for (int i = 0; i < held.length; i += 2) {
      String candidate = held[i];
      String candidateLower = held[i + 1];
      int rank;
      if (candidateLower.equals(lower)) {
        rank = 0;
      } else if (candidateLower.equals(besideLower)) {
        rank = 1;
      } else if (candidateLower.length() > lower.length()
          && candidateLower.endsWith(lower)
          && candidateLower.charAt(candidateLower.length() - lower.length() - 1) == '/') {
        rank = 2;
      } else {
        continue;
      }
      if (best == null || rank < bestRank || (rank == bestRank && before(candidate, best, path))) {
        best = candidate;
        bestRank = rank;
      }
    }
    return best;
  }

  /**
   * Among two candidates of one rank: the shorter, then the one in the link's case, then code
   * points.
   */
  private static boolean before(String candidate, String best, String path) {
    if (candidate.length() != best.length()) {
      return candidate.length() < best.length();
    }
    boolean candidateCase = candidate.endsWith(path);
    if (candidateCase != best.endsWith(path)) {
      return candidateCase;
    }
    return compareCodePoints(candidate, best) < 0;
  }

  /** The one note at {@code path}, ignoring case (its exact case first, then code-point order). */
  private String exactly(String path) {
    String[] held = byName.get(key(path));
    if (held == null) {
      return null;
    }
    String lower = path.toLowerCase(Locale.ROOT);
    String best = null;
    for (int i = 0; i < held.length; i += 2) {
      String candidate = held[i];
      if (candidate.equals(path)) {
        return candidate;
      }
      if (held[i + 1].equals(lower) && (best == null || compareCodePoints(candidate, best) < 0)) {
        best = candidate;
      }
    }
    return best;
  }

  /** {@code path} ({@code ./x}, {@code ../x}) from {@code folder}, or null above the vault. */
  private static String relative(String folder, String path) {
    java.util.ArrayList<String> parts = new java.util.ArrayList<>();
    if (!folder.isEmpty()) {
      parts.addAll(Arrays.asList(folder.split("/", -1)));
    }
    for (String part : path.split("/", -1)) {
      if (part.equals("..")) {
        if (parts.isEmpty()) {
          return null;
        }
        parts.remove(parts.size() - 1);
      } else if (!part.equals(".")) {
        parts.add(part);
      }
    }
    return String.join("/", parts);
  }

  /** The index key of a path: its file name (after the last {@code /}), lower-cased. */
  private static String key(String path) {
    return path.substring(path.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
  }

  static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
