package notesmcp.policy.vault;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import notesmcp.files.FileProblem;
import notesmcp.files.Folder;
import notesmcp.files.OpenedFile;
import notesmcp.files.Posix;
import notesmcp.files.Watcher;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.rules.Policy;
import notesmcp.text.CodePoints;
import notesmcp.text.Quote;
import notesmcp.text.Utf8;

/**
 * The notes the policy lets be read, as they are in the workspace now: one ordered, paged view that
 * {@code list_notes} (and any other listing) pages through with one kind of cursor, the lookup that
 * turns a client's path into the server's own name, and change notices for whoever listens ({@code
 * docs/design.md}, "The catalog").
 *
 * <p>A policy that names its notes ({@link Policy#namesNotes}) is listed in its own order: each
 * name is looked at, at listing time, as a regular file reached folder by folder from the root;
 * nothing is enumerated. Any other policy is served from an enumeration the server makes itself,
 * lazily (nothing before the first call that needs it), from the root's descriptor: every folder
 * opened relative to its parent, never through a link, never across a mount point ({@link
 * Folder#folder}); only folders some readable pattern can reach are entered, an excluded folder
 * never, nothing deeper than 16 folders, no name that breaks the name rules. The enumeration is
 * kept, and refreshed from inotify ({@link Watcher}): each call that consults it first applies the
 * changes the kernel has queued, so it is as current as the kernel's events. It is never trusted
 * for a read: {@link Workspace} makes every careful check itself.
 *
 * <p>Bounds, whatever the tree: at most {@link #MAX_NOTES} notes kept and {@link #MAX_FOLDERS}
 * folders entered and watched; what lies beyond is not served (neither listed nor readable), and
 * stderr says so once. Where inotify cannot be had (no instance left, a watch refused), the
 * enumeration is made again on use, at most once every {@link #POLL_MILLIS} ms, and stderr says so.
 *
 * <p>Lock rule: this object's monitor guards the enumeration, taken for each refresh and each
 * lookup or page copied out of it (directory reads and inotify reads happen under it; note reads
 * never do). Listeners are told outside it, one change at a time, in order, under {@link
 * #delivery}. Any thread may call.
 */
public final class Catalog {
  /** Paths in one page of a listing. */
  public static final int PAGE_SIZE = 500;

  /** Notes the enumeration keeps at most. */
  public static final int MAX_NOTES = 100_000;

  /** Folders the enumeration enters and watches at most. */
  public static final int MAX_FOLDERS = 10_000;

  /** The longest cursor this server issues, in characters. */
  public static final int MAX_CURSOR_CHARS = 4096;

  /** Without inotify: the enumeration is made again at most this often. */
  static final long POLL_MILLIS = 1000;

  /**
   * Chunks of events one refresh applies at most: another process renaming as fast as it can must
   * not hold a call in the refresh for ever. What is left waits for the next refresh.
   */
  private static final int MAX_EVENT_CHUNKS = 4;

  /** What a watched folder reports: names made, removed, moved; the folder going; writes. */
  private static final int EVENTS = Watcher.NAMES | Posix.IN_MODIFY | Posix.IN_CLOSE_WRITE;

  /**
   * The order of {@link #notes}: {@link String#compareTo}, many times cheaper to run, or {@link
   * CodePoints#ORDER}. The two differ only where the first UTF-16 units two paths differ in are a
   * surrogate (part of a character above U+FFFF) and a unit from U+E000 to U+FFFF, so the cheap one
   * serves until some name has shown each kind ({@link #see} sorts the set again then). A vault
   * with emoji in its names but no character from U+E000 up (private use, presentation and
   * full-width forms, U+FFFD) keeps it for good. Folders ({@link #folders}) are never listed, only
   * looked up and cut by prefix, which both orders do alike.
   */
  private Comparator<String> pathOrder() {
    return new Comparator<String>() {
      @Override
      public int compare(String a, String b) {
        return anySurrogate && anyFromE000 ? CodePoints.compare(a, b) : a.compareTo(b);
      }
    };
  }

  /**
   * Takes note of the characters of {@code name}, {@code bytes} long in UTF-8, before a path that
   * ends with it is kept or a folder of that name entered: every path of {@link #notes} is made of
   * names seen so. Under this object's monitor.
   */
  private void see(String name, int bytes) {
    if ((anySurrogate && anyFromE000) || bytes == name.length()) {
      return; // in code-point order already; or ASCII (as many bytes as characters)
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c >= 0xd800) {
        if (c < 0xe000) {
          anySurrogate = true;
        } else {
          anyFromE000 = true;
        }
      }
    }
    if (anySurrogate && anyFromE000) {
      NavigableSet<String> sorted = new TreeSet<>(pathOrder());
      sorted.addAll(notes);
      notes = sorted;
    }
  }

  /** One page of a listing: the paths in order, and the cursor of the next page, or null. */
  public record Page(List<String> paths, String nextCursor) {}

  /**
   * What changed in the workspace since the last notice: the note paths made, removed or written
   * ({@code paths}), whether the list of notes changed ({@code listChanged}), and whether the
   * catalog lost track and read everything again ({@code everything}: then {@code paths} may be
   * incomplete, and a listener should treat every note as changed).
   */
  public record Change(Set<String> paths, boolean listChanged, boolean everything) {}

  /** Told of changes; see {@link #listen}. */
  public interface Listener {
    /** Must not block for long: the next change waits for it. */
    void changed(Change change);
  }

  /** A listing's arguments were refused; the message is the refusal's text. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String reason) {
      super(reason, null, false, false);
    }
  }

  /**
   * One folder of the enumeration: its path ("" for the root), the path's length in UTF-8 bytes,
   * its reach, its inotify watch.
   */
  private static final class Node {
    final String path;
    final int bytes;
    final Policy.Reach reach;
    final int depth;
    int watch = -1;

    Node(String path, int bytes, Policy.Reach reach, int depth) {
      this.path = path;
      this.bytes = bytes;
      this.reach = reach;
      this.depth = depth;
    }
  }

  private final Policy policy;
  private final Workspace workspace;
  private final PrintStream log;
  private final int maxNotes;
  private final int maxFolders;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private final Object delivery = new Object();

  // Guarded by this.
  private boolean enumerated;
  private Watcher watcher;
  private boolean polling;
  private long scannedAt;
  private boolean anySurrogate;
  private boolean anyFromE000;
  private NavigableSet<String> notes = new TreeSet<>(pathOrder());
  private final NavigableMap<String, Node> folders = new TreeMap<>();
  private final Map<Integer, Node> watches = new HashMap<>();
  private final List<Change> undelivered = new ArrayList<>();
  private boolean toldNotes;
  private boolean toldFolders;
  private int toldFolderProblems;
  private Thread watching;
  private final CursorMac mac = new CursorMac();

  /**
   * A policy that names its notes: what each note's name showed at the last look, by name; guarded
   * by itself (the watcher's looks and {@link #catchUp}'s).
   */
  private final Map<String, OpenedFile.Identity> namedSeen = new HashMap<>();

  public Catalog(Policy policy, Workspace workspace, PrintStream log) {
    this(policy, workspace, log, MAX_NOTES, MAX_FOLDERS);
  }

  /** A catalog with other bounds (for tests of what happens beyond them). */
  Catalog(Policy policy, Workspace workspace, PrintStream log, int maxNotes, int maxFolders) {
    this.policy = policy;
    this.workspace = workspace;
    this.log = log;
    this.maxNotes = maxNotes;
    this.maxFolders = maxFolders;
  }

  /**
   * Enumerates the workspace now, on a daemon thread of its own, so that the first call finds it
   * done (a serving process calls this once, as it starts): a call that comes sooner waits for it
   * on this object's monitor, as it would have waited for its own enumeration. The cursors' key is
   * made then too. Nothing to enumerate for a policy that names its notes: those are looked at one
   * by one. Then {@code afterwards}, if not null, on the same thread (for a policy that names its
   * notes, the thread runs only that; with neither, no thread starts).
   */
  public void enumerateInBackground(Runnable afterwards) {
    boolean enumerates = !policy.namesNotes();
    if (!enumerates && afterwards == null) {
      return;
    }
    Thread early =
        new Thread("notes-mcp catalog start") {
          @Override
          public void run() {
            if (enumerates) {
              synchronized (Catalog.this) {
                refresh();
              }
              deliver();
              mac.of(new byte[0], 0); // the cursors' key and digest: some 20 ms the first time
            }
            if (afterwards != null) {
              afterwards.run();
            }
          }
        };
    early.setDaemon(true);
    early.start();
  }

  /** The folders the enumeration has entered, by path ("" the root); for tests. */
  synchronized Set<String> entered() {
    return new TreeSet<>(folders.keySet());
  }

  /**
   * One page of the notes in {@code folder} and below it (null: all), after the position {@code
   * cursor} names (null: from the first). In code-point order of the paths, or in the policy's
   * order for a policy that names its notes.
   *
   * @throws Refused if {@code folder} is not a folder's path, or {@code cursor} is not a cursor
   *     this catalog issued for that folder
   */
  public Page page(String folder, String cursor) throws Refused {
    if (folder != null) {
      String problem = NoteName.problemWith(folder);
      if (problem != null) {
        throw new Refused("folder " + Quote.of(folder) + " is not a folder's path: it " + problem);
      }
    }
    String position = cursor == null ? null : position(cursor, folder == null ? "" : folder);
    return policy.namesNotes() ? namedPage(folder, position) : enumeratedPage(folder, position);
  }

  /**
   * The catalog's own name for the note at {@code path}, character for character the same, or null
   * when the enumeration holds no such note. For a policy with patterns only: a named policy's
   * names are the policy's own.
   */
  public NoteName find(String path) {
    String found;
    synchronized (this) {
      // A name the enumeration holds is read at once: the read itself checks what is there now.
      // Only a name it lacks waits for the changes the kernel queued, in case it just appeared.
      found = enumerated ? held(path) : null;
      if (found == null) {
        refresh();
        found = held(path);
      }
    }
    deliver();
    return found == null ? null : NoteName.checked(found);
  }

  /** The enumeration's own string equal to {@code path}, or null. Under this object's monitor. */
  private String held(String path) {
    String at = notes.ceiling(path);
    return path.equals(at) ? at : null;
  }

  /**
   * Up to {@code max} readable notes whose paths start with {@code prefix}, in the listing's order
   * (for completing a path as it is typed).
   */
  public List<String> startingWith(String prefix, int max) {
    List<String> found = new ArrayList<>();
    if (policy.namesNotes()) {
      for (NoteName name : policy.named()) {
        if (found.size() < max
            && name.value().startsWith(prefix)
            && workspace.isRegularFile(name)) {
          found.add(name.value());
        }
      }
      return found;
    }
    synchronized (this) {
      refresh();
      for (String path : notes.tailSet(prefix, true)) {
        if (found.size() == max || !path.startsWith(prefix)) {
          break;
        }
        found.add(path);
      }
    }
    deliver();
    return found;
  }

  /** The first readable notes whose paths start with a prefix, and how many do in all. */
  public record Matches(List<String> paths, int total) {}

  /**
   * Up to {@code max} readable notes whose paths start with {@code prefix}, in the listing's order,
   * and the number of all that do (for completing a path as it is typed). Bounded whatever the
   * prefix: one walk over at most {@link #MAX_NOTES} held names (or the policy's named notes, each
   * looked at), copying out at most {@code max}.
   */
  public Matches matching(String prefix, int max) {
    List<String> found = new ArrayList<>();
    int total = 0;
    if (policy.namesNotes()) {
      for (NoteName name : policy.named()) {
        if (name.value().startsWith(prefix) && workspace.isRegularFile(name)) {
          if (found.size() < max) {
            found.add(name.value());
          }
          total++;
        }
      }
      return new Matches(found, total);
    }
    synchronized (this) {
      refresh();
      for (String path : notes.tailSet(prefix, true)) {
        if (!path.startsWith(prefix)) {
          break;
        }
        if (found.size() < max) {
          found.add(path);
        }
        total++;
      }
    }
    deliver();
    return new Matches(found, total);
  }

  /**
   * Tells {@code listener} of every change from now on, from a watcher thread of the catalog's own
   * (started with the first listener; a daemon) or from a call that applied the change first. A
   * policy that names its notes is watched by looking at each note once a second.
   */
  public void listen(Listener listener) {
    listeners.add(listener);
    synchronized (this) {
      if (watching == null) {
        // What is there now is looked at before this returns, so any change after it is told.
        if (policy.namesNotes()) {
          lookAtNamed(false);
        } else {
          refresh();
        }
        watching =
            new Thread("notes-mcp catalog") {
              @Override
              public void run() {
                watch();
              }
            };
        watching.setDaemon(true);
        watching.start();
      }
    }
    deliver();
  }

  // --- pages ---

  private Page namedPage(String folder, String position) {
    List<NoteName> names = policy.named();
    int start = position == null ? 0 : Integer.parseInt(position);
    List<String> paths = new ArrayList<>();
    for (int i = start; i < names.size(); i++) {
      NoteName name = names.get(i);
      if ((folder == null || name.value().startsWith(folder + "/"))
          && workspace.isRegularFile(name)) {
        paths.add(name.value());
        if (paths.size() == PAGE_SIZE && i + 1 < names.size()) {
          return new Page(paths, cursor("i", folder, Integer.toString(i + 1)));
        }
      }
    }
    return new Page(paths, null);
  }

  private Page enumeratedPage(String folder, String after) {
    List<String> paths = new ArrayList<>();
    boolean more;
    synchronized (this) {
      refresh();
      NavigableSet<String> view =
          folder == null ? notes : notes.subSet(folder + "/", true, folder + "0", false);
      if (after != null) {
        view = view.tailSet(after, false);
      }
      more = false;
      for (String path : view) {
        if (paths.size() == PAGE_SIZE) {
          more = true;
          break;
        }
        paths.add(path);
      }
    }
    deliver();
    return new Page(paths, more ? cursor("p", folder, paths.get(paths.size() - 1)) : null);
  }

  // --- cursors: [1][kind][folder length: 2][folder][position length: 2][position][MAC: 16] ---

  /**
   * A cursor for another paged answer than a listing ({@code backlinks}, {@code find_notes}...):
   * the same form and key as a listing's, so it holds only within this process, and only for the
   * {@code kind} (an ASCII letter other than {@code p} and {@code i}, the listings') and the {@code
   * scope} (what the answer was about: a note's path, the digest of a query) it was issued for; the
   * scope and the position are each at most 1,024 bytes of UTF-8, as a path is. {@link
   * #position(String, char, String, String)} reads it back.
   */
  public String cursor(char kind, String scope, String position) {
    if (kind == 'p' || kind == 'i' || kind > 0x7f) {
      throw new IllegalArgumentException("a listing's cursor kind");
    }
    return cursor(String.valueOf(kind), scope, position);
  }

  /**
   * The position a cursor of {@link #cursor(char, String, String)} names, once it is known to be
   * one this catalog issued for {@code kind} and {@code scope}.
   *
   * @param otherScope the end of the refusal when it was issued for another scope: "cursor was
   *     issued for " + otherScope
   * @throws Refused if it is not such a cursor, in the listing's words
   */
  public String position(String cursor, char kind, String scope, String otherScope) throws Refused {
    return position(cursor, (byte) kind, scope, "cursor was issued for " + otherScope);
  }

  private String cursor(String kind, String folder, String position) {
    byte[] folderBytes = (folder == null ? "" : folder).getBytes(StandardCharsets.UTF_8);
    byte[] positionBytes = position.getBytes(StandardCharsets.UTF_8);
    ByteBuffer payload = ByteBuffer.allocate(6 + folderBytes.length + positionBytes.length + 16);
    payload.put((byte) 1).put(kind.getBytes(StandardCharsets.US_ASCII)[0]);
    payload.putShort((short) folderBytes.length).put(folderBytes);
    payload.putShort((short) positionBytes.length).put(positionBytes);
    payload.put(mac.of(payload.array(), payload.position()));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(payload.array());
  }

  /**
   * The position a cursor names, once it is known to be one this catalog issued, for {@code folder}
   * ("" for the whole workspace): an index for a named policy, a path otherwise.
   */
  private String position(String cursor, String folder) throws Refused {
    return position(
        cursor,
        (byte) (policy.namesNotes() ? 'i' : 'p'),
        folder,
        "cursor was issued for another folder: pass the folder it came with, or start again"
            + " without a cursor");
  }

  private String position(String cursor, byte expectedKind, String scope, String otherScope)
      throws Refused {
    byte[] bytes;
    try {
      bytes = cursor.length() > MAX_CURSOR_CHARS ? null : Base64.getUrlDecoder().decode(cursor);
    } catch (IllegalArgumentException e) {
      bytes = null;
    }
    if (bytes == null || bytes.length < 6 + 16) {
      throw notIssued();
    }
    int signed = bytes.length - 16;
    byte[] signature = new byte[16];
    System.arraycopy(bytes, signed, signature, 0, 16);
    if (!MessageDigest.isEqual(signature, mac.of(bytes, signed))) {
      throw notIssued();
    }
    ByteBuffer payload = ByteBuffer.wrap(bytes, 0, signed);
    byte version = payload.get();
    byte kind = payload.get();
    byte[] issuedFor = new byte[payload.getShort() & 0xffff];
    payload.get(issuedFor);
    byte[] position = new byte[payload.getShort() & 0xffff];
    payload.get(position);
    if (version != 1 || kind != expectedKind || payload.hasRemaining()) {
      throw notIssued();
    }
    if (!new String(issuedFor, StandardCharsets.UTF_8).equals(scope)) {
      throw new Refused(otherScope);
    }
    return new String(position, StandardCharsets.UTF_8);
  }

  private static Refused notIssued() {
    return new Refused(
        "cursor is not one this server issued (a cursor holds only within the server process"
            + " that gave it): start again without a cursor");
  }

  // --- the enumeration (all under this object's monitor) ---

  /** Makes the enumeration current: the first time, or from the events the kernel queued. */
  private void refresh() {
    if (!enumerated) {
      enumerated = true;
      openWatcher();
      scanAll(false);
      return;
    }
    if (polling) {
      if (System.nanoTime() - scannedAt >= POLL_MILLIS * 1_000_000L) {
        scanAll(true);
      }
      return;
    }
    applyEvents();
  }

  private void openWatcher() {
    try {
      watcher = Watcher.open();
    } catch (IOException e) {
      startPolling("inotify is not available (" + FileProblem.describe(e) + ")");
    }
  }

  private void startPolling(String why) {
    if (!polling) {
      polling = true;
      log.println(
          "notes-mcp: "
              + why
              + "; the notes the policy allows are enumerated again at most once every "
              + POLL_MILLIS
              + " ms, when a call needs them");
    }
  }

  /** Enumerates everything again; {@code tell}: say what changed to the listeners. */
  private void scanAll(boolean tell) {
    Set<String> before = tell ? new HashSet<>(notes) : Set.of();
    for (Node node : folders.values()) {
      unwatch(node);
    }
    folders.clear();
    watches.clear();
    notes.clear();
    Node root = new Node("", 0, policy.reach(), 0);
    enter(root, workspace.rootFolder());
    scannedAt = System.nanoTime();
    if (tell) {
      Set<String> changed = new LinkedHashSet<>();
      for (String path : before) {
        if (!notes.contains(path)) {
          changed.add(path);
        }
      }
      for (String path : notes) {
        if (!before.contains(path)) {
          changed.add(path);
        }
      }
      if (!changed.isEmpty() || watcher != null) {
        undelivered.add(new Change(changed, !changed.isEmpty(), watcher != null));
      }
    }
  }

  /** Watches and lists the open folder {@code folder} as {@code node}, and what it reaches. */
  private void enter(Node node, Folder folder) {
    if (folders.size() >= maxFolders) {
      if (!toldFolders) {
        toldFolders = true;
        log.println(
            "notes-mcp: more than "
                + maxFolders
                + " folders could hold notes the policy allows; the notes of the others (first:"
                + " "
                + Quote.of(node.path)
                + ") are not served");
      }
      return;
    }
    folders.put(node.path, node);
    if (watcher != null && !polling) {
      try {
        node.watch = watcher.watch(folder, EVENTS);
        Node earlier = watches.put(node.watch, node);
        if (earlier != null && earlier != node) {
          // The same folder under an old path (moved before the move's events were read): the
          // old path goes, and the watch is the new node's.
          earlier.watch = -1;
          forget(earlier.path, null);
        }
      } catch (IOException e) {
        node.watch = -1;
        startPolling(
            "the folder "
                + Quote.of(node.path)
                + " cannot be watched ("
                + FileProblem.describe(e)
                + ")");
      }
    }
    try (Folder.Entries entries = folder.entries()) {
      Folder.Entry entry;
      while ((entry = entries.next()) != null) {
        byte[] raw = entry.name();
        String name = plainName(raw);
        if (name != null) {
          take(node, folder, name, raw.length, entry.type(), null);
        } else if ((name = text(raw)) != null) {
          look(node, folder, name, entry.type(), null);
        }
      }
    } catch (IOException e) {
      folderProblem(node.path, e);
    }
  }

  /**
   * The name, if it is printable ASCII (U+0020 to U+007E) not starting with '.' and at most 255
   * bytes: such a name follows every rule of {@link NoteName} as it stands (one look at its bytes
   * decides, which is most names' case), else null, and {@link #text} and the full check decide.
   */
  private static String plainName(byte[] name) {
    if (name.length == 0 || name.length > NoteName.MAX_COMPONENT_BYTES || name[0] == '.') {
      return null;
    }
    for (byte b : name) {
      if (b < 0x20 || b == 0x7f) {
        return null; // non-ASCII bytes are negative
      }
    }
    return new String(name, StandardCharsets.ISO_8859_1);
  }

  /** A name as a folder lists it, decoded strictly as UTF-8, or null if it is not UTF-8. */
  private static String text(byte[] name) {
    return new Folder.Entry(name, 0, 0).text();
  }

  /**
   * Takes in the entry {@code name} of {@code node}'s open folder, of directory type {@code type}
   * ({@code DT_*}; unknown is looked up): a readable note, or a folder to enter.
   */
  private void look(Node node, Folder folder, String name, int type, Set<String> changed) {
    if (NoteName.componentProblem(name) == null) {
      take(node, folder, name, Utf8.length(name), type, changed);
    }
  }

  /** As {@link #look}, for a name known to follow the rules, {@code bytes} long in UTF-8. */
  private void take(
      Node node, Folder folder, String name, int bytes, int type, Set<String> changed) {
    int pathBytes = node.path.isEmpty() ? bytes : node.bytes + 1 + bytes;
    if (pathBytes > NoteName.MAX_PATH_BYTES) {
      return;
    }
    String path = node.path.isEmpty() ? name : node.path + "/" + name;
    if (type == Posix.DT_UNKNOWN) {
      try {
        int mode = (int) folder.attributesOf(name)[Posix.MODE] & Posix.S_IFMT;
        type = mode == Posix.S_IFDIR ? Posix.DT_DIR : mode == Posix.S_IFREG ? Posix.DT_REG : -1;
      } catch (IOException e) {
        return;
      }
    }
    if (type == Posix.DT_REG && node.reach.reads(name)) {
      if (notes.size() >= maxNotes) {
        if (!toldNotes) {
          toldNotes = true;
          log.println(
              "notes-mcp: the workspace holds more than "
                  + maxNotes
                  + " notes the policy allows; only "
                  + maxNotes
                  + " are served (which ones depends on the order the folders list them)");
        }
        return;
      }
      see(name, bytes);
      if (notes.add(path) && changed != null) {
        changed.add(path);
      }
    } else if (type == Posix.DT_DIR && node.depth < NoteName.MAX_FOLDERS) {
      Policy.Reach reach = node.reach.enter(name);
      if (reach == null) {
        return;
      }
      see(name, bytes);
      try (Folder sub = folder.folder(name)) {
        enter(new Node(path, pathBytes, reach, node.depth + 1), sub);
      } catch (Folder.NotAFolder e) {
        // A link, a mount point, another file system: never entered, and no notes in it.
      } catch (IOException e) {
        folderProblem(path, e);
      }
      if (changed != null) {
        changed.addAll(notes.subSet(path + "/", true, path + "0", false));
      }
    }
  }

  private void folderProblem(String path, IOException e) {
    if (e instanceof java.nio.file.NoSuchFileException) {
      return; // gone meanwhile: its events say so
    }
    if (toldFolderProblems < 20) {
      toldFolderProblems++;
      log.println(
          "notes-mcp: the folder "
              + Quote.of(path)
              + " cannot be listed ("
              + FileProblem.describe(e)
              + "); its notes are not served");
    }
  }

  /**
   * Applies the events the kernel has queued (at most {@link #MAX_EVENT_CHUNKS} chunks of them); an
   * overflow makes it enumerate everything again. Names made or moved in are looked at once each,
   * after all the events in hand, as they are then (one walk to each folder): a name renamed a
   * thousand times since the last call costs one look.
   */
  private void applyEvents() {
    Set<String> changed = new LinkedHashSet<>();
    Map<String, Node> toLook = new LinkedHashMap<>();
    boolean listChanged = false;
    for (int chunk = 0; chunk < MAX_EVENT_CHUNKS; chunk++) {
      List<Watcher.Event> events;
      try {
        events = watcher.events();
      } catch (IOException e) {
        startPolling("inotify failed (" + FileProblem.describe(e) + ")");
        scanAll(true);
        return;
      }
      if (events.isEmpty()) {
        break;
      }
      for (Watcher.Event event : events) {
        if (event.overflowed()) {
          // The kernel dropped events: what is still queued predates a new enumeration and must
          // not be applied over it, so it is dropped too (events after this are applied later).
          discardEvents();
          scanAll(true);
          return;
        }
        int before = changed.size();
        listChanged |= apply(event, changed, toLook);
        listChanged |= changed.size() != before && isListChange(event);
      }
    }
    Map<Node, List<String>> byFolder = new LinkedHashMap<>();
    for (Map.Entry<String, Node> look : toLook.entrySet()) {
      Node node = look.getValue();
      if (folders.get(node.path) == node) {
        List<String> names = byFolder.get(node);
        if (names == null) {
          names = new ArrayList<>();
          byFolder.put(node, names);
        }
        names.add(look.getKey());
      }
    }
    for (Map.Entry<Node, List<String>> folder : byFolder.entrySet()) {
      Node node = folder.getKey();
      int before = changed.size();
      try (Folder open = workspace.rootFolder().walk(node.path)) {
        for (String path : folder.getValue()) {
          forget(path, changed);
          look(node, open, path.substring(path.lastIndexOf('/') + 1), Posix.DT_UNKNOWN, changed);
        }
      } catch (IOException e) {
        // The folder is gone or no longer one to enter: its parent's events say so.
      }
      listChanged |= changed.size() != before;
    }
    if (!changed.isEmpty() || listChanged) {
      undelivered.add(new Change(changed, listChanged, false));
    }
  }

  private void discardEvents() {
    try {
      for (int chunk = 0; chunk < 4 * MAX_EVENT_CHUNKS && !watcher.events().isEmpty(); chunk++) {
        // dropped
      }
    } catch (IOException e) {
      // The enumeration that follows stands alone.
    }
  }

  private static boolean isListChange(Watcher.Event event) {
    return (event.mask()
            & (Posix.IN_CREATE | Posix.IN_DELETE | Posix.IN_MOVED_FROM | Posix.IN_MOVED_TO))
        != 0;
  }

  /**
   * Applies one event: a name gone is forgotten at once, a name made or moved in is noted in {@code
   * toLook} to be looked at after the batch. Returns whether the list changed.
   */
  private boolean apply(Watcher.Event event, Set<String> changed, Map<String, Node> toLook) {
    Node node = watches.get(event.watch());
    if (node == null) {
      return false;
    }
    int mask = event.mask();
    if (event.ended() || (mask & (Posix.IN_DELETE_SELF | Posix.IN_MOVE_SELF)) != 0) {
      if (!node.path.isEmpty()) {
        // The folder went (its parent's event says so too); the root stays served by descriptor.
        int before = notes.size();
        forget(node.path, changed);
        return notes.size() != before;
      }
      return false;
    }
    String name = new String(event.name(), StandardCharsets.UTF_8);
    if (name.isEmpty() || name.indexOf('\0') >= 0 || name.indexOf('/') >= 0) {
      return false;
    }
    String path = node.path.isEmpty() ? name : node.path + "/" + name;
    if ((mask & (Posix.IN_DELETE | Posix.IN_MOVED_FROM)) != 0) {
      forget(path, changed);
    }
    if ((mask & (Posix.IN_CREATE | Posix.IN_MOVED_TO)) != 0) {
      toLook.put(path, node);
    }
    if ((mask & (Posix.IN_MODIFY | Posix.IN_CLOSE_WRITE | Posix.IN_ATTRIB)) != 0
        && notes.contains(path)) {
      changed.add(path);
    }
    return false;
  }

  /** Drops the note at {@code path} and the folder at {@code path} with all below it. */
  private void forget(String path, Set<String> changed) {
    if (notes.remove(path) && changed != null) {
      changed.add(path);
    }
    NavigableSet<String> below = notes.subSet(path + "/", true, path + "0", false);
    if (changed != null) {
      changed.addAll(below);
    }
    below.clear();
    Node node = folders.remove(path);
    if (node != null) {
      unwatch(node);
    }
    NavigableMap<String, Node> under = folders.subMap(path + "/", true, path + "0", false);
    for (Node sub : under.values()) {
      unwatch(sub);
    }
    under.clear();
  }

  private void unwatch(Node node) {
    if (node.watch >= 0) {
      watches.remove(node.watch);
      try {
        watcher.unwatch(node.watch);
      } catch (IOException e) {
        // Already ended by the kernel.
      }
      node.watch = -1;
    }
  }

  // --- telling listeners ---

  /**
   * Tells the listeners what the last refreshes found, outside the catalog's lock, in order. A
   * listener that calls back into the catalog finds its own changes told after the ones in hand.
   */
  private void deliver() {
    if (listeners.isEmpty()) {
      synchronized (this) {
        undelivered.clear();
      }
      return;
    }
    if (Thread.holdsLock(delivery)) {
      return; // called back from a listener: the loop below tells these next
    }
    synchronized (delivery) {
      while (true) {
        List<Change> changes;
        synchronized (this) {
          if (undelivered.isEmpty()) {
            return;
          }
          changes = new ArrayList<>(undelivered);
          undelivered.clear();
        }
        for (Change change : changes) {
          Change told =
              new Change(
                  Collections.unmodifiableSet(change.paths()),
                  change.listChanged(),
                  change.everything());
          for (Listener listener : listeners) {
            try {
              listener.changed(told);
            } catch (RuntimeException e) {
              log.println("notes-mcp: a catalog listener failed: " + e);
            }
          }
        }
      }
    }
  }

  /** The watcher thread: waits for the kernel's events, or looks again every second. */
  private void watch() {
    while (true) {
      try {
        if (policy.namesNotes()) {
          Thread.sleep(POLL_MILLIS);
          lookAtNamed(true);
        } else {
          Watcher waitOn;
          synchronized (this) {
            refresh();
            waitOn = polling ? null : watcher;
          }
          deliver();
          if (waitOn == null) {
            Thread.sleep(POLL_MILLIS);
          } else {
            waitOn.await((int) POLL_MILLIS);
          }
        }
      } catch (InterruptedException e) {
        return;
      } catch (IOException | RuntimeException e) {
        log.println("notes-mcp: the catalog's watcher failed (" + e.getMessage() + "); retrying");
        try {
          Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  /**
   * A policy that names its notes: each note looked at, and a change told when it differs. One look
   * at a time ({@link #namedSeen}'s monitor); the telling happens outside it.
   */
  private void lookAtNamed(boolean tell) {
    Set<String> changed = new LinkedHashSet<>();
    boolean listChanged = false;
    synchronized (namedSeen) {
      for (NoteName name : policy.named()) {
        OpenedFile.Identity now = workspace.identityOf(name);
        OpenedFile.Identity was = namedSeen.get(name.value());
        if (now == null ? was != null : !now.equals(was)) {
          changed.add(name.value());
          listChanged |= now == null || was == null;
          if (now == null) {
            namedSeen.remove(name.value());
          } else {
            namedSeen.put(name.value(), now);
          }
        }
      }
      if (tell && !changed.isEmpty()) {
        synchronized (this) {
          undelivered.add(new Change(changed, listChanged, false));
        }
      }
    }
    if (tell) {
      deliver();
    }
  }

  /**
   * Brings the catalog up to what the workspace holds now, and tells the listeners what changed
   * before returning: the changes the kernel has queued are applied (as any listing applies them),
   * or, for a policy that names its notes, each note is looked at now rather than at the next
   * second's look. A call that answers from what a listener keeps calls this first, so that the
   * listener has heard of every change made before the call. Nothing to do before the first {@link
   * #listen}.
   */
  public void catchUp() {
    synchronized (this) {
      if (watching == null) {
        return;
      }
      if (!policy.namesNotes()) {
        refresh();
      }
    }
    if (policy.namesNotes()) {
      lookAtNamed(true);
    } else {
      deliver();
    }
  }

  /**
   * Whether {@code path} is a note of this catalog as it stood at the last refresh ({@link
   * #catchUp}): in the enumeration, or, for a policy that names its notes, one of those names that
   * is a regular file now. Looks at nothing else and refreshes nothing.
   */
  public boolean holds(String path) {
    if (policy.namesNotes()) {
      NoteName name = policy.readableNamed(path);
      return name != null && workspace.isRegularFile(name);
    }
    synchronized (this) {
      return notes.contains(path);
    }
  }

  /**
   * Every note of the catalog, in the listing's order: the pages of {@link #page} put together (a
   * list of at most {@link #MAX_NOTES} of the catalog's own strings).
   */
  public List<String> all() {
    List<String> paths = new ArrayList<>();
    String cursor = null;
    try {
      do {
        Page page = page(null, cursor);
        paths.addAll(page.paths());
        cursor = page.nextCursor();
      } while (cursor != null);
    } catch (Refused e) {
      throw new IllegalStateException("the catalog refused its own cursor", e);
    }
    return paths;
  }
}
