package notesmcp.policy.knowledge;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import notesmcp.files.OpenedFile;
import notesmcp.markdown.Link;
import notesmcp.markdown.LinkTargets;
import notesmcp.markdown.Structure;
import notesmcp.markdown.Tag;
import notesmcp.markdown.Value;
import notesmcp.policy.rules.NoteName;
import notesmcp.policy.rules.Policy;
import notesmcp.policy.vault.Catalog;
import notesmcp.policy.vault.Workspace;
import notesmcp.text.CodePoints;
import notesmcp.text.Utf8;

/**
 * The structure of every note the policy lets be read, kept current with the workspace
 * (docs/knowledge.md, "The structure index"): each note's {@link Structure} as the careful read
 * last found it, and the indexes answers are made from (notes by tag, by property name, by the file
 * names their links may name), over exactly the notes the {@link Catalog} holds now.
 *
 * <p>What it holds comes from the catalog and nowhere else: the names are the catalog's (its change
 * notices tell which to look at again, and each is looked up in the catalog before it is kept or
 * dropped), and every note is read by {@link Workspace#readBytes}, the read {@code read_note}
 * makes. A call that answers from it first brings the catalog up to the workspace ({@link
 * Catalog#catchUp}) and applies every change it was told ({@link #ready}), so an answer holds only
 * notes the catalog holds at that moment, as each was when last read; a link resolves among those
 * names only ({@link LinkTargets}), so a hidden or deleted note is no note at all here.
 *
 * <p>Reading every note takes a while (about a second of one core for 10,000 notes of 20 KiB): a
 * serving process starts it {@link #START_DELAY_MILLIS} after it starts, or at the first call that
 * needs it; one thread reads, in batches. Until the first pass is done, a call that needs it waits
 * up to {@link #READY_WAIT_MILLIS} and then says how far the reading got ({@link NotReady}).
 *
 * <p>Bounds: what is kept is counted ({@link Structure#retainedBytes} and the index's own share);
 * past {@link #MAX_KEPT_BYTES} everything kept is dropped and the calls that need it are refused
 * until the server restarts, saying so; stderr says so once. Each note is at most the policy's
 * {@code maxNoteBytes} (at most 1 MiB) and its structure is bounded by notes-markdown.
 *
 * <p>Locks: {@code this} guards the maps, held briefly, never while a note is read or the catalog
 * called; {@link #work} is held by whoever reads notes into it (the reading thread, a batch at a
 * time, or a call catching up), so one reader at a time; {@link #names}' lock orders membership
 * changes. Order: {@code work}, then {@code namesLock}, then {@code this}. The catalog's listener
 * only takes {@code this}. Any thread may call.
 */
public final class NoteStructures {
  /** What the structures and the index may keep at most, in bytes of heap. */
  public static final long MAX_KEPT_BYTES = 128L << 20;

  /**
   * How long after a serving process starts it begins to read every note: a one-shot client's call
   * has come and gone by then, and never shares the machine with the reading.
   */
  public static final long START_DELAY_MILLIS = 1000;

  /** How long a call waits for the first pass before it says how far the reading got. */
  public static final long READY_WAIT_MILLIS = 1000;

  /**
   * Notes changed since they were read that a call reads itself before it answers; with more, it
   * says the structure is still being read.
   */
  public static final int MAX_READ_IN_CALL = 1000;

  /** Notes the reading thread reads before it lets a call in. */
  private static final int BATCH = 32;

  /** The structure cannot answer now; the message is the refusal's text. */
  public static final class NotReady extends Exception {
    private static final long serialVersionUID = 1L;

    NotReady(String reason) {
      super(reason, null, false, false);
    }
  }

  /** One note as last read: its structure (null when the careful read refused it). */
  static final class Entry {
    final String path;
    final Structure structure;
    final OpenedFile.Identity identity;

    /** Its tags' keys ({@link Tag#key}), each once. */
    final String[] tags;

    /** Its properties' names, lower-cased, each once. */
    final String[] properties;

    /** The values of each of {@link #properties}, decoded once, as {@link Filter} tests them. */
    final PropertyValues values;

    /**
     * The file names its links may name ({@link LinkTargets#fileNames}), each without one {@code
     * .md} at its end ({@link #linkKey}), each once.
     */
    final String[] linkNames;

    /**
     * For each link, in order, the position in {@link #linkNames} of a key it may name; -1 for a
     * link into the note itself or above the vault.
     */
    final short[] linkKeys;

    /**
     * For each link, the position of its second key, or -1; null when no link has two. A link has
     * two when its path and its path with {@code .md} lower-case differently without {@code .md}
     * ({@code [[ΟΔΟΣ]]}: a final sigma alone, not before {@code .md}).
     */
    final short[] otherKeys;

    /** What it keeps, in bytes of heap, with its share of the indexes. */
    final long bytes;

    Entry(String path, Structure structure, OpenedFile.Identity identity) {
      this.path = path;
      this.structure = structure;
      this.identity = identity;
      if (structure == null) {
        tags = new String[0];
        properties = new String[0];
        values = PropertyValues.NONE;
        linkNames = new String[0];
        linkKeys = new short[0];
        otherKeys = null;
        bytes = 96;
        return;
      }
      Set<String> keys = new LinkedHashSet<>();
      for (Tag tag : structure.tags()) {
        keys.add(tag.key());
      }
      tags = keys.toArray(new String[0]);
      // The front matter decoded once: each name lower-cased, with the values of every name that
      // lower-cases to it, in the order written, as Filter tests them.
      Map<String, List<Value>> named = new LinkedHashMap<>();
      for (Map.Entry<String, Value> property : structure.properties().map().entrySet()) {
        named
            .computeIfAbsent(property.getKey().toLowerCase(Locale.ROOT), name -> new ArrayList<>(1))
            .add(property.getValue());
      }
      properties = named.keySet().toArray(new String[0]);
      values = PropertyValues.of(new ArrayList<>(named.values()));
      List<Link> links = structure.links();
      Map<String, Integer> at = new HashMap<>();
      linkKeys = new short[links.size()];
      short[] others = null;
      for (int k = 0; k < links.size(); k++) {
        Link link = links.get(k);
        List<String> names = link.sameNote() ? List.of() : keysOf(link, path);
        linkKeys[k] = names.isEmpty() ? -1 : position(at, names.get(0));
        if (names.size() > 1) {
          if (others == null) {
            others = new short[links.size()];
            java.util.Arrays.fill(others, (short) -1);
          }
          others[k] = position(at, names.get(1));
        }
      }
      otherKeys = others;
      linkNames = new String[at.size()];
      for (Map.Entry<String, Integer> key : at.entrySet()) {
        linkNames[key.getValue()] = key.getKey();
      }
      // The object, its identity, four arrays, and a reference in an index's list for each item.
      bytes =
          structure.retainedBytes()
              + values.bytes()
              + 48
              + 56
              + 64
              + 2L * linkKeys.length
              + (otherKeys == null ? 0 : 16 + 2L * otherKeys.length)
              + 8L * (tags.length + properties.length + linkNames.length);
    }

    /**
     * The positions of the links that may name a note whose file name has the key {@code key} (one
     * of {@link #linkNames}, the same string), ascending.
     */
    int[] linksNaming(String key) {
      int wanted = -1;
      for (int i = 0; i < linkNames.length; i++) {
        if (linkNames[i] == key) {
          wanted = i;
        }
      }
      int count = 0;
      for (int k = 0; k < linkKeys.length && wanted >= 0; k++) {
        count += names(k, wanted) ? 1 : 0;
      }
      int[] found = new int[count];
      int n = 0;
      for (int k = 0; n < count; k++) {
        if (names(k, wanted)) {
          found[n++] = k;
        }
      }
      return found;
    }

    private boolean names(int link, int key) {
      return linkKeys[link] == key || (otherKeys != null && otherKeys[link] == key);
    }

    private static short position(Map<String, Integer> at, String key) {
      Integer known = at.get(key);
      if (known == null) {
        known = at.size();
        at.put(key, known);
      }
      return (short) (int) known;
    }
  }

  /**
   * The keys ({@link #linkKey}) of the file names {@code link} in the note {@code from} may name
   * ({@link LinkTargets#fileNames}): one, or two when its path and its path with {@code .md}
   * lower-case to different keys; none for a path above the vault. A note the link resolves to has
   * a file name of one of these keys.
   */
  static List<String> keysOf(Link link, String from) {
    List<String> names = LinkTargets.fileNames(link.path(), from);
    if (names.size() < 2) {
      return names.isEmpty() ? names : List.of(linkKey(names.get(0)));
    }
    String first = linkKey(names.get(0));
    String second = linkKey(names.get(1));
    return first.equals(second) ? List.of(first) : List.of(first, second);
  }

  /**
   * The key a link's file name is indexed by: the name without one {@code .md} at its end, so that
   * a link's two file names ({@code paper kite}, {@code paper kite.md}) are one key, as is the file
   * name of the note it may resolve to.
   */
  static String linkKey(String fileName) {
    return fileName.endsWith(".md") ? fileName.substring(0, fileName.length() - 3) : fileName;
  }

  /**
   * The entries that hold one key (a tag, a property's name, a link's file name), with the key: the
   * one string of that key the index keeps, which every entry's array refers to.
   */
  static final class Bucket extends ArrayList<Entry> {
    private static final long serialVersionUID = 1L;

    /** What a bucket keeps besides its entries: the map's node, the key, the list. */
    static final long BYTES = 144;

    final String key;

    Bucket(String key) {
      super(2);
      this.key = key;
    }
  }

  /** One link to a note, found in the index: the note that holds it, where, and the link. */
  private record Candidate(Entry from, Link link) {}

  /** One backlink: the note that links, the link's line, the line's text now. */
  public record Backlink(String path, int line, String context) {}

  /** A page of backlinks, and where the next starts (the last one's path and line), or null. */
  public record Backlinks(List<Backlink> backlinks, String nextPath, int nextLine) {}

  /** A tag and how many readable notes hold it. */
  public record TagCount(String tag, int count) {}

  private final Policy policy;
  private final Workspace workspace;
  private final Catalog catalog;
  private final PrintStream log;
  private final Object work = new Object();
  private final Object namesLock = new Object();
  private final Object starting = new Object();

  // Guarded by starting.
  private boolean listed;
  private boolean reading;

  // Guarded by this.
  private final LinkTargets names = new LinkTargets();
  private final Set<String> namesToCheck = new LinkedHashSet<>();
  private final Set<String> toRead = new LinkedHashSet<>();
  private final Map<String, Entry> entries = new HashMap<>();
  private final Map<String, Bucket> byLinkName = new HashMap<>();
  private final TreeMap<String, Bucket> byTag = new TreeMap<>();
  private final Map<String, Bucket> byProperty = new HashMap<>();
  private boolean relist;
  private boolean firstPassDone;
  private boolean givenUp;
  private long kept;
  private long firstPassStarted;

  public NoteStructures(Policy policy, Workspace workspace, Catalog catalog, PrintStream log) {
    this.policy = policy;
    this.workspace = workspace;
    this.catalog = catalog;
    this.log = log;
  }

  /**
   * Starts reading every note {@link #START_DELAY_MILLIS} from now, on a daemon thread, unless a
   * call has started it sooner. A serving process calls this once, as it starts.
   */
  public void startInBackground() {
    Thread delayed =
        new Thread("notes-mcp structure start") {
          @Override
          public void run() {
            synchronized (starting) {
              long deadline = System.nanoTime() + START_DELAY_MILLIS * 1_000_000L;
              long left;
              while (!reading && (left = deadline - System.nanoTime()) > 0) {
                try {
                  starting.wait(Math.max(1, left / 1_000_000L));
                } catch (InterruptedException e) {
                  return;
                }
              }
            }
            startReading();
          }
        };
    delayed.setDaemon(true);
    delayed.start();
  }

  /** Listens to the catalog and takes its names, once: what a link resolves among. */
  private void startNames() {
    synchronized (starting) {
      if (listed) {
        return;
      }
      catalog.listen(new Changes());
      List<String> all = catalog.all();
      synchronized (this) {
        for (String path : all) {
          names.add(path);
          toRead.add(path);
        }
      }
      listed = true;
    }
  }

  /** Takes the names and starts the thread that reads every note, once. */
  private void startReading() {
    startNames();
    synchronized (starting) {
      if (reading) {
        return;
      }
      reading = true;
      starting.notifyAll();
    }
    synchronized (this) {
      firstPassStarted = System.nanoTime();
    }
    Thread reader =
        new Thread("notes-mcp structure") {
          @Override
          public void run() {
            readForEver();
          }
        };
    reader.setDaemon(true);
    reader.start();
  }

  /** The catalog's change notices: which names to look up again, which notes to read again. */
  private final class Changes implements Catalog.Listener {
    @Override
    public void changed(Catalog.Change change) {
      synchronized (NoteStructures.this) {
        namesToCheck.addAll(change.paths());
        toRead.addAll(change.paths());
        relist |= change.everything();
        NoteStructures.this.notifyAll();
      }
    }
  }

  private void readForEver() {
    while (true) {
      synchronized (work) {
        applyNames();
        readSome(BATCH);
      }
      synchronized (this) {
        if (toRead.isEmpty() && namesToCheck.isEmpty() && !relist) {
          if (!firstPassDone) {
            firstPassDone = true;
            notifyAll();
            long millis = (System.nanoTime() - firstPassStarted) / 1_000_000L;
            log.println(
                "notes-mcp: the structure of "
                    + entries.size()
                    + " notes read in "
                    + millis
                    + " ms ("
                    + (kept >> 20)
                    + " MiB kept)");
          }
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
      }
    }
  }

  /**
   * Looks up each name the catalog told of, and applies it: a name the catalog holds is one a link
   * may resolve to, any other is dropped with what was kept of it. After an {@code everything}
   * notice, every name is taken from the catalog again. Under {@link #work} or alone.
   */
  private void applyNames() {
    synchronized (namesLock) {
      List<String> check;
      boolean again;
      synchronized (this) {
        check = new ArrayList<>(namesToCheck);
        namesToCheck.clear();
        again = relist;
        relist = false;
      }
      if (again) {
        List<String> all = catalog.all();
        Set<String> now = new HashSet<>(all);
        synchronized (this) {
          for (String path : new ArrayList<>(entries.keySet())) {
            if (!now.contains(path)) {
              names.remove(path);
              drop(path);
            }
          }
          for (String path : all) {
            names.add(path);
            toRead.add(path);
          }
        }
      }
      for (String path : check) {
        boolean held = catalog.holds(path);
        synchronized (this) {
          if (held) {
            names.add(path);
          } else {
            names.remove(path);
            drop(path);
            toRead.remove(path);
          }
        }
      }
    }
  }

  /** Reads at most {@code count} of the notes to read. Under {@link #work}. */
  private void readSome(int count) {
    List<String> batch = new ArrayList<>();
    synchronized (this) {
      if (givenUp) {
        toRead.clear();
        return;
      }
      Iterator<String> next = toRead.iterator();
      while (next.hasNext() && batch.size() < count) {
        batch.add(next.next());
        next.remove();
      }
    }
    for (String path : batch) {
      read(path);
    }
  }

  /**
   * Reads the note at {@code path} (a catalog's name) again, unless the catalog no longer holds it
   * or its file is as it was when last read (its identity: device, inode, size, change time).
   */
  private void read(String path) {
    Entry old;
    synchronized (this) {
      if (!names.contains(path)) {
        drop(path);
        return;
      }
      old = entries.get(path);
    }
    if (old != null && old.identity != null) {
      NoteName name = NoteName.checked(path);
      if (old.identity.equals(workspace.identityOf(name))) {
        return;
      }
    }
    Entry entry = readNow(path);
    synchronized (this) {
      if (names.contains(path) && !givenUp) {
        install(entry);
      }
    }
  }

  /** The note at {@code path} read now by the careful read, and its structure. */
  private Entry readNow(String path) {
    Workspace.Raw raw = workspace.readBytes(path, policy.maxNoteBytes());
    if (!(raw instanceof Workspace.Bytes)) {
      return new Entry(path, null, null);
    }
    Workspace.Bytes read = (Workspace.Bytes) raw;
    byte[] bytes = read.bytes();
    if (bytes.length > Structure.MAX_NOTE_BYTES || Utf8.firstMalformed(bytes) >= 0) {
      return new Entry(path, null, null);
    }
    return new Entry(path, Structure.parse(bytes, path), read.identity());
  }

  // --- the index (all under this object's monitor) ---

  private void install(Entry entry) {
    Entry old = entries.put(entry.path, entry);
    if (old != null) {
      unindex(old);
    }
    index(entry);
    if (kept > MAX_KEPT_BYTES) {
      giveUp();
    }
  }

  private void drop(String path) {
    Entry old = entries.remove(path);
    if (old != null) {
      unindex(old);
    }
  }

  /** Adds the entry to every index; its keys become the index's own strings. */
  private void index(Entry entry) {
    kept += entry.bytes;
    for (int i = 0; i < entry.tags.length; i++) {
      entry.tags[i] = add(byTag, entry.tags[i], entry);
    }
    for (int i = 0; i < entry.properties.length; i++) {
      entry.properties[i] = add(byProperty, entry.properties[i], entry);
    }
    for (int i = 0; i < entry.linkNames.length; i++) {
      entry.linkNames[i] = add(byLinkName, entry.linkNames[i], entry);
    }
  }

  private void unindex(Entry entry) {
    kept -= entry.bytes;
    for (String tag : entry.tags) {
      remove(byTag, tag, entry);
    }
    for (String property : entry.properties) {
      remove(byProperty, property, entry);
    }
    for (String name : entry.linkNames) {
      remove(byLinkName, name, entry);
    }
  }

  /** Adds {@code entry} to the bucket of {@code key}; returns the bucket's key string. */
  private String add(Map<String, Bucket> index, String key, Entry entry) {
    Bucket bucket = index.get(key);
    if (bucket == null) {
      bucket = new Bucket(key);
      index.put(key, bucket);
      kept += Bucket.BYTES + 2L * key.length();
    }
    bucket.add(entry);
    return bucket.key;
  }

  private void remove(Map<String, Bucket> index, String key, Entry entry) {
    Bucket bucket = index.get(key);
    if (bucket == null) {
      return;
    }
    for (int i = bucket.size() - 1; i >= 0; i--) {
      if (bucket.get(i) == entry) {
        bucket.remove(i);
        break;
      }
    }
    if (bucket.isEmpty()) {
      index.remove(key);
      kept -= Bucket.BYTES + 2L * key.length();
    }
  }

  private void giveUp() {
    givenUp = true;
    entries.clear();
    byTag.clear();
    byProperty.clear();
    byLinkName.clear();
    toRead.clear();
    kept = 0;
    notifyAll();
    log.println(
        "notes-mcp: the notes' structure would keep more than "
            + (MAX_KEPT_BYTES >> 20)
            + " MiB; backlinks, list_tags, find_notes and search_notes' tag and property filters"
            + " are refused until the server restarts");
  }

  // --- answering ---

  /**
   * Makes the index answer for the workspace as it is now: the catalog brought up to date, every
   * change it told applied, every note changed since it was read read again.
   *
   * @throws NotReady when the first reading of every note is not done within {@link
   *     #READY_WAIT_MILLIS}, more than {@link #MAX_READ_IN_CALL} notes changed since they were
   *     read, or the index was given up
   */
  private void ready() throws NotReady {
    startReading();
    catalog.catchUp();
    synchronized (this) {
      long deadline = System.nanoTime() + READY_WAIT_MILLIS * 1_000_000L;
      long left;
      while (!firstPassDone && !givenUp && (left = deadline - System.nanoTime()) > 0) {
        try {
          wait(Math.max(1, left / 1_000_000L));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      if (givenUp) {
        throw tooLarge();
      }
      if (!firstPassDone) {
        throw stillReading();
      }
    }
    synchronized (work) {
      applyNames();
      synchronized (this) {
        if (toRead.size() > MAX_READ_IN_CALL) {
          throw stillReading();
        }
      }
      readSome(Integer.MAX_VALUE);
    }
    synchronized (this) {
      if (givenUp) {
        throw tooLarge();
      }
    }
  }

  private NotReady stillReading() {
    int total = names.size();
    int read = Math.max(0, Math.min(total, total - toRead.size()));
    return new NotReady(
        "the notes' structure is still being read: "
            + read
            + " of "
            + total
            + " notes; try again in a moment");
  }

  private static NotReady tooLarge() {
    return new NotReady(
        "the notes' structure is larger than the "
            + (MAX_KEPT_BYTES >> 20)
            + " MiB this server keeps, so it was not kept; read_note (with outline or section)"
            + " and note_links still answer");
  }

  /**
   * The note each of {@code links} (held by the note {@code from}) resolves to among the notes the
   * catalog holds now, in order; null for a link to no such note. Needs the names only, not the
   * notes read.
   */
  public List<String> resolve(List<Link> links, String from) {
    startNames();
    catalog.catchUp();
    applyNames();
    List<String> resolved = new ArrayList<>(links.size());
    synchronized (this) {
      for (Link link : links) {
        resolved.add(names.resolve(link, from));
      }
    }
    return resolved;
  }

  /**
   * The backlinks of the note {@code target} (one of the catalog's names): one for each line of a
   * note other than it that holds a link resolving to it, by path in code-point order, then line;
   * the page after {@code afterPath}/{@code afterLine} (null: from the first), at most {@code max}.
   * Each linking note is read now, by the careful read: its line's text ({@link Context}) is what
   * it holds now; a note that cannot be read now gives none.
   */
  public Backlinks backlinks(String target, String afterPath, int afterLine, int max)
      throws NotReady {
    ready();
    List<Candidate> candidates = new ArrayList<>();
    synchronized (this) {
      String name = target.substring(target.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
      String key = linkKey(name);
      Bucket linking = byLinkName.get(key);
      if (linking != null) {
        for (Entry entry : linking) {
          if (entry.path.equals(target)) {
            continue;
          }
          // Only the links that may name the target's file name are decoded and resolved
          // (resolving is the cost: it looks at every note of the name a link names).
          for (Link link : entry.structure.links(entry.linksNaming(linking.key))) {
            if (target.equals(names.resolve(link, entry.path))) {
              candidates.add(new Candidate(entry, link));
            }
          }
        }
      }
    }
    candidates.sort(
        new java.util.Comparator<Candidate>() {
          @Override
          public int compare(Candidate a, Candidate b) {
            int byPath = CodePoints.compare(a.from().path, b.from().path);
            return byPath != 0 ? byPath : Integer.compare(a.link().offset(), b.link().offset());
          }
        });
    List<Backlink> page = new ArrayList<>();
    int at = 0;
    while (at < candidates.size() && !isAfter(candidates.get(at), afterPath, afterLine)) {
      at++;
    }
    // Each linking note is read once for all its lines; a note that changed since it was indexed
    // may give none, so the reads are bounded too.
    for (int reads = 0; at < candidates.size(); reads++) {
      Entry from = candidates.get(at).from();
      if (reads == 2 * max) {
        return new Backlinks(page, from.path, 0);
      }
      int end = at;
      while (end < candidates.size() && candidates.get(end).from() == from) {
        end++;
      }
      for (Backlink backlink : readBacklinks(from, target, candidates.subList(at, end))) {
        if (afterPath != null
            && backlink.path().equals(afterPath)
            && backlink.line() <= afterLine) {
          continue;
        }
        if (page.size() == max) {
          Backlink last = page.get(max - 1);
          return new Backlinks(page, last.path(), last.line());
        }
        page.add(backlink);
      }
      at = end;
      if (page.size() == max && at < candidates.size()) {
        Backlink last = page.get(max - 1);
        return new Backlinks(page, last.path(), last.line());
      }
    }
    return new Backlinks(page, null, 0);
  }

  /** Whether {@code candidate}'s line comes after the position {@code path}, {@code line}. */
  private static boolean isAfter(Candidate candidate, String path, int line) {
    if (path == null) {
      return true;
    }
    int byPath = CodePoints.compare(candidate.from().path, path);
    return byPath > 0 || (byPath == 0 && candidate.link().line() > line);
  }

  /**
   * The backlinks to {@code target} in the note of {@code from}, read now: from the lines of {@code
   * found} when the file is as it was when indexed, else from the note's links as read now (and the
   * note is read into the index again).
   */
  private List<Backlink> readBacklinks(Entry from, String target, List<Candidate> found) {
    List<Backlink> backlinks = new ArrayList<>();
    Workspace.Raw raw = workspace.readBytes(from.path, policy.maxNoteBytes());
    if (!(raw instanceof Workspace.Bytes)) {
      again(from.path);
      return backlinks;
    }
    Workspace.Bytes read = (Workspace.Bytes) raw;
    byte[] bytes = read.bytes();
    List<Link> links = new ArrayList<>();
    if (read.identity().equals(from.identity)) {
      // The file as it was when read into the index, which found it UTF-8.
      for (Candidate candidate : found) {
        links.add(candidate.link());
      }
    } else {
      again(from.path);
      if (bytes.length > Structure.MAX_NOTE_BYTES || Utf8.firstMalformed(bytes) >= 0) {
        return backlinks;
      }
      String key = linkKey(target.substring(target.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT));
      Structure now = Structure.parse(bytes, from.path);
      synchronized (this) {
        for (Link link : now.links()) {
          if (!link.sameNote()
              && keysOf(link, from.path).contains(key)
              && target.equals(names.resolve(link, from.path))) {
            links.add(link);
          }
        }
      }
    }
    int line = 0;
    for (Link link : links) {
      if (link.line() != line) {
        line = link.line();
        backlinks.add(
            new Backlink(from.path, line, Context.line(bytes, link.offset(), link.length())));
      }
    }
    return backlinks;
  }

  /** Marks a note to be read again (it changed since it was read). */
  private synchronized void again(String path) {
    toRead.add(path);
    notifyAll();
  }

  /** Every tag of the readable notes, by key in code-point order, with how many notes hold it. */
  public List<TagCount> tags() throws NotReady {
    ready();
    List<TagCount> tags = new ArrayList<>();
    synchronized (this) {
      for (Map.Entry<String, Bucket> tag : byTag.entrySet()) {
        tags.add(new TagCount(tag.getKey(), tag.getValue().size()));
      }
    }
    tags.sort(
        new java.util.Comparator<TagCount>() {
          @Override
          public int compare(TagCount a, TagCount b) {
            return CodePoints.compare(a.tag(), b.tag());
          }
        });
    return tags;
  }

  /**
   * The readable notes that pass {@code filter}, in code-point order of their paths: the first
   * {@code max} after {@code after} (null: from the first). Only those are sorted, so a page costs
   * about the same however many notes pass.
   */
  public List<String> find(Filter filter, String after, int max) throws NotReady {
    ready();
    // The page so far, its last path first: a path that comes before that one takes its place.
    PriorityQueue<String> page =
        new PriorityQueue<>(Math.min(max, 1024) + 1, CodePoints.ORDER.reversed());
    synchronized (this) {
      for (Entry entry : candidates(filter)) {
        String path = entry.path;
        if (after != null && CodePoints.compare(path, after) <= 0) {
          continue;
        }
        if (page.size() == max && CodePoints.compare(path, page.peek()) >= 0) {
          continue;
        }
        if (filter.matches(entry)) {
          page.add(path);
          if (page.size() > max) {
            page.poll();
          }
        }
      }
    }
    List<String> found = new ArrayList<>(page);
    found.sort(CodePoints.ORDER);
    return found;
  }

  /** The fewest entries that hold every note {@code filter} may pass. Under this monitor. */
  private List<Entry> candidates(Filter filter) {
    if (filter.tag() != null) {
      List<Entry> tagged = new ArrayList<>();
      List<Entry> exact = byTag.get(filter.tag());
      if (exact != null) {
        tagged.addAll(exact);
      }
      SortedMap<String, Bucket> nested = byTag.subMap(filter.tag() + "/", filter.tag() + "0");
      if (!nested.isEmpty()) {
        Set<Entry> once = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        once.addAll(tagged);
        for (Bucket more : nested.values()) {
          once.addAll(more);
        }
        return new ArrayList<>(once);
      }
      return tagged;
    }
    if (filter.property() != null) {
      List<Entry> named = byProperty.get(filter.property());
      return named == null ? List.of() : named;
    }
    return new ArrayList<>(entries.values());
  }

  /**
   * Whether the note at {@code path} passes {@code filter} as the index holds it now (after {@link
   * #ready}): for search_notes' filters, over its hits.
   */
  public List<String> passing(List<String> paths, Filter filter) throws NotReady {
    ready();
    List<String> passed = new ArrayList<>();
    synchronized (this) {
      for (String path : paths) {
        Entry entry = entries.get(path);
        if (entry != null && names.contains(path) && filter.matches(entry)) {
          passed.add(path);
        }
      }
    }
    return passed;
  }

  /**
   * The aliases of the note at {@code path} as its file holds them now: from the index when the
   * file is as it was when read (one look at its name), else from a careful read now; empty when it
   * cannot be read. Needs nothing read before.
   */
  public List<String> aliases(String path) {
    Entry entry;
    synchronized (this) {
      entry = entries.get(path);
    }
    NoteName name = NoteName.checked(path);
    if (entry == null
        || entry.identity == null
        || !entry.identity.equals(workspace.identityOf(name))) {
      entry = readNow(path);
      synchronized (this) {
        if (firstPassDone && names.contains(path) && !givenUp && entry.structure != null) {
          install(entry);
        }
      }
    }
    return entry.structure == null ? List.of() : entry.structure.aliases();
  }

  /** How many notes the index holds, read or not (for tests). */
  synchronized int size() {
    return entries.size();
  }
}
