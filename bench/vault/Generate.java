import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import notesmcp.text.CodePoints;

/**
 * The benchmark vault, reproducibly: 10,000 Markdown notes in 200 folders (3-40 KiB each, about 220
 * MB), Unicode names (spaces, accents, all NFC), Obsidian-style extras that must never be served
 * ({@code .obsidian/}, {@code .trash/}, one name in NFD), and 200 planted words whose notes are
 * known, with the 200 fixed search queries. One seed, one output: the same seed gives the same
 * bytes on any JDK (java.util.Random's algorithm is specified; nothing here iterates a hash).
 *
 * <p>The notes also carry a known structure (docs/knowledge.md): properties of every YAML type,
 * tags in the front matter and inline, headings, block ids, wikilinks with aliases, headings and
 * blocks, embeds, Markdown links, links between notes of the same file name, into the excluded
 * folders {@code Private/} and {@code Templates/} and into dot folders, and to notes that do not
 * exist; what each note holds, as the generator meant it, with every link resolved by
 * docs/knowledge.md's rule, goes to DIR/structure.json. The structure draws from the same random
 * stream only after every path and planted word is chosen, so the planted words, their notes and
 * the queries are those of the vault before it.
 *
 * <p>Run from the repository root: {@code java -cp untrusted-text/target/classes
 * bench/vault/Generate.java --out DIR [--seed N]} (or {@code bench/vault/generate}, which builds
 * untrusted-text first if it must: the listing's order is the program's own, {@code CodePoints}).
 * It writes DIR/vault/ (the vault),
 * DIR/truth.json (the planted words, their notes, the queries, the files never to be served),
 * DIR/structure.json (every note's structure) and DIR/notes.tsv (every note's path and size in
 * code-point order), and prints a SHA-256 over every file's path and bytes. See bench/README.md,
 * "The vault benchmark".
 */
public final class Generate {
  static final int FOLDERS = 200;
  static final int NOTES_PER_FOLDER = 50;
  /** Notes in each folder: {@link #NOTES_PER_FOLDER}, or fewer with {@code --notes N}. */
  final int notesPerFolder;
  static final int MIN_BYTES = 3 * 1024;
  static final int MAX_BYTES = 40 * 1024;
  static final int SLACK = 768;
  static final int PLANTED_WORDS = 140;
  static final int PLANTED_ACCENTED = 30;
  static final int PLANTED_PHRASES = 30;

  static final String[] AREAS = {
    "Projects", "Journal", "Areas", "Résumés", "Café ideas", "Reading notes", "Zürich trip",
    "Meetings", "Inbox", "Archive", "Recipes", "Research", "People", "Garden", "Música",
    "Travel", "Work log", "Ideas", "Écriture", "Health"
  };

  /** Real words, accented ones among them, so the text looks like notes and folds like notes. */
  static final String[] COMMON = {
    "the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "as", "with", "was", "on",
    "be", "at", "by", "this", "had", "not", "are", "but", "from", "or", "have", "an", "they",
    "which", "one", "you", "were", "all", "we", "her", "she", "there", "would", "their", "will",
    "when", "who", "him", "been", "has", "more", "if", "no", "out", "so", "said", "what", "up",
    "its", "about", "into", "than", "them", "can", "only", "other", "new", "some", "could",
    "time", "these", "two", "may", "then", "do", "first", "any", "my", "now", "such", "like",
    "our", "over", "man", "me", "even", "most", "made", "after", "also", "did", "many", "before",
    "must", "through", "back", "years", "where", "much", "your", "way", "well", "down", "should",
    "because", "each", "just", "those", "people", "how", "too", "little", "state", "good", "very",
    "make", "world", "still", "own", "see", "men", "work", "long", "get", "here", "between",
    "both", "life", "being", "under", "never", "day", "same", "another", "know", "while", "last",
    "might", "us", "great", "old", "year", "off", "come", "since", "against", "go", "came",
    "right", "used", "take", "three", "notes", "paper", "kite", "garden", "meeting", "draft",
    "idea", "project", "review", "question", "answer", "plan", "list", "week", "morning",
    "evening", "coffee", "book", "chapter", "method", "result", "measure", "index", "search",
    "folder", "reader", "letter", "river", "mountain", "city", "station", "train", "window",
    "kitchen", "recipe", "bread", "butter", "garlic", "tomato", "lemon", "market", "budget",
    "invoice", "client", "design", "sketch", "prototype", "release", "version", "test", "bug",
    "fix", "schema", "server", "protocol", "policy", "vault", "journal", "summary", "outline",
    "café", "crème", "brûlée", "naïve", "façade", "résumé", "élan", "déjà", "vu", "jalapeño",
    "Zürich", "Köln", "München", "São", "Paulo", "Málaga", "Kraków", "Łódź", "Øresund", "Ærø",
    "smörgåsbord", "piñata", "señor", "año", "über", "straße", "Ålesund", "Reykjavík", "İzmir",
    "coöperate", "fiancée", "protégé", "entrée", "soufflé", "tête-à-tête", "voilà", "mañana",
    "東京", "日本語", "メモ", "北京", "서울", "Ελλάδα", "Москва", "🙂", "📝", "→", "—", "…"
  };

  static final String[] SYLLABLES = {
    "ka", "lo", "mi", "ren", "tas", "vo", "shi", "bel", "dor", "fen", "gal", "hu", "jin",
    "kel", "lan", "mor", "nis", "pel", "qui", "ros", "sun", "tor", "ul", "ven", "wes", "yor",
    "zan", "ar", "el", "in", "on", "ith", "ost", "und", "ber", "cal", "dri", "fo", "gre", "ha"
  };

  /** Planted words are built from these, none of which is in the text's syllables or words. */
  static final String[] RARE = {
    "qux", "zvor", "plimb", "xeth", "yq", "jurv", "wosk", "fnar", "glep", "kvast", "thrib",
    "oxq", "mrel", "zhib", "vupt", "crym", "dwex", "snof", "blurq", "ptax"
  };

  static final String[] ACCENTED_RARE = {"é", "ö", "ñ", "ü", "å", "ç", "è", "ï", "ø", "á"};

  final Random random;
  final Path out;
  final Path vault;
  final List<String> vocabulary = new ArrayList<>();
  double[] cumulative;
  final List<Note> notes = new ArrayList<>();
  final List<Planted> planted = new ArrayList<>();
  final TreeMap<String, byte[]> files = new TreeMap<>(); // every file written, by path
  final List<String> neverServed = new ArrayList<>();
  final long seed;
  final List<Shape> shapes = new ArrayList<>();
  /** Every note of the vault (the excluded folders' too) by lower-cased file name. */
  final TreeMap<String, List<String>> byName = new TreeMap<>();
  /** The headings and block ids of the notes written so far, by path, for links into them. */
  final List<List<String>> headingsOf = new ArrayList<>();
  final List<List<String>> blocksOf = new ArrayList<>();
  final List<String> notePaths = new ArrayList<>();
  final Set<Integer> kiteLinkers = new TreeSet<>();
  String kite;

  record Note(String path, int bytes, List<Planted> plants) {}

  /** One planted item: the text planted, the query that must find exactly its notes. */
  static final class Planted {
    final String kind;
    final String text;
    final String query;
    final List<String> notes = new ArrayList<>();
    final List<String> decoys = new ArrayList<>();
    String decoyText;

    Planted(String kind, String text, String query) {
      this.kind = kind;
      this.text = text;
      this.query = query;
    }
  }

  Generate(long seed, Path out) {
    this(seed, out, FOLDERS * NOTES_PER_FOLDER);
  }

  Generate(long seed, Path out, int notes) {
    this.notesPerFolder = notes / FOLDERS;
    this.seed = seed;
    this.random = new Random(seed);
    this.out = out;
    this.vault = out.resolve("vault");
  }

  public static void main(String[] args) throws IOException {
    long seed = 20261201L;
    int count = FOLDERS * NOTES_PER_FOLDER;
    Path out = null;
    String usage = "usage: java bench/vault/Generate.java --out DIR [--seed N] [--notes N]";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--notes" -> count = Integer.parseInt(args[++i]);
        default -> {
          System.err.println(usage);
          System.exit(2);
        }
      }
    }
    if (out == null) {
      System.err.println(usage);
      System.exit(2);
    }
    if (count < FOLDERS || count % FOLDERS != 0 || count > FOLDERS * NOTES_PER_FOLDER) {
      System.err.println(
          "Generate: --notes must be a multiple of " + FOLDERS + " from " + FOLDERS + " to "
              + FOLDERS * NOTES_PER_FOLDER + " (as many in each of the " + FOLDERS + " folders)");
      System.exit(2);
    }
    if (Files.exists(out.resolve("vault"))) {
      System.err.println("Generate: " + out.resolve("vault") + " exists; remove it first");
      System.exit(2);
    }
    long start = System.nanoTime();
    Generate generate = new Generate(seed, out, count);
    generate.run();
    System.err.printf(
        Locale.ROOT,
        "Generate: %d notes, %d files, %d bytes in %s (%.1f s)%n",
        generate.notes.size(),
        generate.files.size(),
        generate.totalBytes(),
        generate.vault,
        (System.nanoTime() - start) / 1e9);
    System.out.println("sha256 " + generate.digest());
  }

  void run() throws IOException {
    buildVocabulary();
    List<String> folders = folders();
    plantedItems();
    // Which notes get which planted item, decided before any text is written.
    List<String> paths = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    for (String folder : folders) {
      Set<String> names = new TreeSet<>();
      for (int n = 0; n < notesPerFolder; n++) {
        String name = noteName(folder, n);
        while (!names.add(name)) {
          name = name.substring(0, name.length() - 3) + " " + (1 + random.nextInt(99)) + ".md";
        }
        paths.add(folder + "/" + name);
        // The last paragraph and the planted words overshoot the target by well under SLACK bytes (checked below).
        sizes.add(MIN_BYTES + random.nextInt(MAX_BYTES - MIN_BYTES - SLACK + 1));
      }
    }
    List<List<Planted>> plants = new ArrayList<>();
    for (int i = 0; i < paths.size(); i++) {
      plants.add(new ArrayList<>());
    }
    for (Planted item : planted) {
      int count = 1 + random.nextInt(3);
      Set<Integer> chosen = new TreeSet<>();
      while (chosen.size() < count) {
        chosen.add(random.nextInt(paths.size()));
      }
      for (int index : chosen) {
        plants.get(index).add(item);
        item.notes.add(paths.get(index));
      }
      if (item.decoyText != null) {
        // The phrase's words in the wrong order, in a note that does not hold the phrase.
        int decoy;
        do {
          decoy = random.nextInt(paths.size());
        } while (chosen.contains(decoy));
        plants.get(decoy).add(decoyOf(item));
        item.decoys.add(paths.get(decoy));
      }
    }
    plan(paths, plants);
    for (int i = 0; i < paths.size(); i++) {
      Shape shape = new Shape(paths.get(i), true);
      String text = noteText(i, paths.get(i), sizes.get(i), plants.get(i), paths, shape);
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      if (bytes.length < MIN_BYTES || bytes.length > MAX_BYTES) {
        throw new IllegalStateException(paths.get(i) + " came out " + bytes.length + " bytes");
      }
      shape.locate(text);
      shapes.add(shape);
      write(paths.get(i), bytes);
      notes.add(new Note(paths.get(i), bytes.length, plants.get(i)));
    }
    extras(paths);
    writeTruth();
    writeStructure();
  }

  // ---- words

  void buildVocabulary() {
    Set<String> words = new LinkedHashSet<>(List.of(COMMON));
    while (words.size() < 6000) {
      StringBuilder word = new StringBuilder();
      int syllables = 1 + random.nextInt(4);
      for (int s = 0; s < syllables; s++) {
        word.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
      }
      words.add(word.toString());
    }
    vocabulary.addAll(words);
    // Zipf's law (s = 1) over the vocabulary in this order: common words first.
    cumulative = new double[vocabulary.size()];
    double sum = 0;
    for (int i = 0; i < cumulative.length; i++) {
      sum += 1.0 / (i + 1);
      cumulative[i] = sum;
    }
    for (int i = 0; i < cumulative.length; i++) {
      cumulative[i] /= sum;
    }
  }

  String word() {
    double x = random.nextDouble();
    int low = 0;
    int high = cumulative.length - 1;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (cumulative[mid] < x) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return vocabulary.get(low);
  }

  static String capitalized(String word) {
    int first = word.codePointAt(0);
    return new StringBuilder()
        .appendCodePoint(Character.toTitleCase(first))
        .append(word.substring(Character.charCount(first)))
        .toString();
  }

  /** A word no note's ordinary text holds, not even inside a longer word. */
  String rareWord(Set<String> taken, boolean accented) {
    while (true) {
      StringBuilder word = new StringBuilder();
      word.append(RARE[random.nextInt(RARE.length)]);
      word.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
      word.append(RARE[random.nextInt(RARE.length)]);
      if (accented) {
        int at = 1 + random.nextInt(word.length() - 1);
        word.insert(at, ACCENTED_RARE[random.nextInt(ACCENTED_RARE.length)]);
      }
      String candidate = word.toString();
      String folded = fold(candidate);
      if (taken.contains(folded) || folded.length() < 6) {
        continue;
      }
      boolean clash = false;
      for (String other : taken) {
        if (other.contains(folded) || folded.contains(other)) {
          clash = true;
          break;
        }
      }
      for (int i = 0; i < vocabulary.size() && !clash; i++) {
        String known = fold(vocabulary.get(i));
        clash = known.contains(folded) || (known.length() >= 4 && folded.contains(known));
      }
      if (!clash) {
        taken.add(folded);
        return candidate;
      }
    }
  }

  /** Lower case without accents: what a search's folding makes of a word. */
  static String fold(String text) {
    String decomposed = Normalizer.normalize(text, Normalizer.Form.NFD);
    return decomposed.replaceAll("\\p{M}", "").toLowerCase(Locale.ROOT);
  }

  void plantedItems() {
    Set<String> taken = new TreeSet<>();
    for (int i = 0; i < PLANTED_WORDS; i++) {
      String word = rareWord(taken, false);
      // Some are planted capitalized and searched in lower case, some the other way round.
      String text = i % 5 == 0 ? capitalized(word) : word;
      String query = i % 7 == 0 ? word.toUpperCase(Locale.ROOT) : word;
      planted.add(new Planted("word", text, query));
    }
    for (int i = 0; i < PLANTED_ACCENTED; i++) {
      String word = rareWord(taken, true);
      String text = i % 2 == 0 ? capitalized(word) : word;
      planted.add(new Planted("accent-folded", text, fold(word)));
    }
    for (int i = 0; i < PLANTED_PHRASES; i++) {
      String first = rareWord(taken, false);
      String second = rareWord(taken, false);
      Planted item =
          new Planted("phrase", first + " " + second, "\"" + first + " " + second + "\"");
      item.decoyText = second + " " + first;
      planted.add(item);
    }
  }

  static Planted decoyOf(Planted phrase) {
    return new Planted("decoy", phrase.decoyText, null);
  }

  // ---- names

  List<String> folders() {
    List<String> folders = new ArrayList<>();
    for (String area : AREAS) {
      folders.add(area);
      List<String> children = new ArrayList<>();
      for (int c = 0; c < 9; c++) {
        String child;
        if (area.equals("Journal")) {
          child = String.valueOf(2018 + c);
        } else {
          child = capitalized(word()) + (random.nextInt(3) == 0 ? " " + word() : "");
        }
        // A third of them one level deeper, inside an earlier sibling.
        String parent = c >= 6 ? children.get(c - 6) : area;
        String folder = parent + "/" + child;
        while (folders.contains(folder)) {
          folder = folder + " " + (c + 2);
        }
        children.add(folder);
        folders.add(folder);
      }
    }
    return folders;
  }

  String noteName(String folder, int n) {
    if (folder.startsWith("Journal/")) {
      String year = folder.substring("Journal/".length(), "Journal/".length() + 4);
      int day = n * 7 + random.nextInt(7);
      return String.format(Locale.ROOT, "%s-%02d-%02d.md", year, 1 + day / 31 % 12, 1 + day % 28);
    }
    StringBuilder name = new StringBuilder(capitalized(word()));
    int words = random.nextInt(4);
    for (int w = 0; w < words; w++) {
      name.append(' ').append(word());
    }
    if (random.nextInt(4) == 0) {
      name.append(' ').append(1 + random.nextInt(40));
    }
    String plain = name.toString().replace("/", "-");
    return Normalizer.normalize(plain, Normalizer.Form.NFC) + ".md";
  }

  static String title(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    return name.substring(0, name.length() - 3);
  }

  // ---- text

  String noteText(
      int index, String path, int target, List<Planted> plants, List<String> paths, Shape shape) {
    StringBuilder text = new StringBuilder(target + 256);
    boolean linksKite = kiteLinkers.contains(index);
    frontmatter(text, path, shape, linksKite);
    heading(text, shape, 1, title(path));
    if (path.equals(kite)) {
      kiteSections(text, shape);
    } else if (linksKite) {
      kiteLinks(text, shape);
    }
    // Where each planted item goes: a byte offset, so some land past the first 16 KiB.
    List<Integer> at = new ArrayList<>();
    for (int p = 0; p < plants.size(); p++) {
      at.add(random.nextInt(Math.max(1, target - 200)));
    }
    int bytes = utf8Length(text);
    while (bytes < target) {
      int before = text.length();
      boolean prose = false;
      int kind = random.nextInt(20);
      if (kind < 2) {
        heading(text, shape, random.nextInt(4) == 0 ? 3 : 2, capitalized(word()) + " " + word());
      } else if (kind < 6) {
        int items = 2 + random.nextInt(5);
        for (int i = 0; i < items; i++) {
          text.append(random.nextInt(3) == 0 ? "- [ ] " : "- ");
          sentence(text, 4 + random.nextInt(8), false);
          text.append('\n');
        }
        text.append('\n');
        prose = true;
      } else if (kind < 8) {
        linksParagraph(text, index, path, paths, shape);
      } else if (kind == 8) {
        special(text, shape);
      } else {
        int sentences = 2 + random.nextInt(6);
        for (int s = 0; s < sentences; s++) {
          sentence(text, 6 + random.nextInt(16), true);
          text.append(' ');
        }
        text.setLength(text.length() - 1);
        if (random.nextInt(6) == 0) {
          block(text, shape);
        }
        text.append("\n\n");
        prose = true;
      }
      bytes += utf8Length(text, before);
      // Plant what is due here, inside the paragraph of prose just written (never inside a link,
      // a heading or code, so that the structure is as written).
      for (int p = 0; prose && p < plants.size(); p++) {
        if (at.get(p) >= 0 && bytes >= at.get(p)) {
          int space = text.lastIndexOf(" ", text.length() - 3);
          int insert = space > before ? space + 1 : text.length() - 2;
          String planted = plants.get(p).text + " ";
          text.insert(insert, planted);
          bytes += utf8Length(planted);
          at.set(p, -1);
        }
      }
    }
    // Any item not placed yet (a tiny note) goes at the end.
    for (int p = 0; p < plants.size(); p++) {
      if (at.get(p) >= 0) {
        text.append(plants.get(p).text).append(".\n");
      }
    }
    headingsOf.add(shape.headings);
    blocksOf.add(shape.blocks);
    return text.toString();
  }

  void sentence(StringBuilder text, int words, boolean stop) {
    for (int w = 0; w < words; w++) {
      String word = word();
      if (w == 0) {
        word = capitalized(word);
      } else if (random.nextInt(40) == 0) {
        word = "**" + word + "**";
      }
      text.append(word);
      if (w + 1 < words) {
        text.append(random.nextInt(12) == 0 ? ", " : " ");
      }
    }
    if (stop) {
      text.append(random.nextInt(8) == 0 ? '?' : '.');
    }
  }

  static int utf8Length(CharSequence text) {
    return utf8Length(text, 0);
  }

  static int utf8Length(CharSequence text, int from) {
    int bytes = 0;
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes++;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  // ---- structure: what the notes hold besides words (docs/knowledge.md)

  /** Notes of the excluded folders: a policy of the benchmark excludes Private/ and Templates/. */
  static final String[] PRIVATE = {
    "Salary review", "Health record", "Passwords", "Diary", "Therapy notes", "Bank accounts"
  };

  static final String[] TEMPLATES = {"Daily note", "Meeting", "Project", "Weekly review"};
  static final String[] STATUS = {"open", "done", "waiting"};
  static final String KITE = "Projects/Paper Kite.md";
  final List<String> hidden = new ArrayList<>();

  /**
   * The structure's own choices, made after every path and planted word: the note renamed to
   * Paper Kite (the first note of Projects/ that holds no planted word or decoy), the 40 notes that
   * link to it (a fifth of a vault of fewer than 200 notes), the notes of the excluded folders, and the index of every note's file name.
   */
  void plan(List<String> paths, List<List<Planted>> plants) {
    for (int i = 0; i < paths.size() && kite == null; i++) {
      String path = paths.get(i);
      if (path.startsWith("Projects/") && path.indexOf('/', 9) < 0 && plants.get(i).isEmpty()
          && !paths.contains(KITE)) {
        paths.set(i, KITE);
        kite = KITE;
      }
    }
    for (int i = 0; i < paths.size() && kite == null; i++) {
      // A small vault (--notes) may have no such note: the first of Projects/ then, its planted
      // items following it to its new name.
      String path = paths.get(i);
      if (path.startsWith("Projects/") && path.indexOf('/', 9) < 0 && !paths.contains(KITE)) {
        paths.set(i, KITE);
        kite = KITE;
        for (Planted item : planted) {
          item.notes.replaceAll(p -> p.equals(path) ? KITE : p);
          item.decoys.replaceAll(p -> p.equals(path) ? KITE : p);
        }
      }
    }
    while (kiteLinkers.size() < Math.min(40, paths.size() / 5)) {
      int linker = random.nextInt(paths.size());
      if (!paths.get(linker).equals(KITE)) {
        kiteLinkers.add(linker);
      }
    }
    for (String name : PRIVATE) {
      hidden.add("Private/" + name + ".md");
    }
    // Two hidden notes share a readable note's file name: a link by name must find the readable
    // one under a policy that hides them, and may find these where nothing is hidden.
    hidden.add("Private/Paper Kite.md");
    hidden.add("Private/" + paths.get(random.nextInt(paths.size())).replaceAll(".*/", ""));
    for (String name : TEMPLATES) {
      hidden.add("Templates/" + name + ".md");
    }
    notePaths.addAll(paths);
    for (String path : paths) {
      byName.computeIfAbsent(nameKey(path), k -> new ArrayList<>()).add(path);
    }
    for (String path : hidden) {
      byName.computeIfAbsent(nameKey(path), k -> new ArrayList<>()).add(path);
    }
  }

  static String nameKey(String path) {
    return path.substring(path.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
  }

  /** What one note holds, as the generator meant it (structure.json). */
  static final class Shape {
    final String path;
    final boolean readable;
    final List<String> tags = new ArrayList<>();
    final Set<String> tagKeys = new TreeSet<>();
    final List<String> aliases = new ArrayList<>();
    final LinkedHashMap<String, Typed> properties = new LinkedHashMap<>();
    final List<Item> items = new ArrayList<>();
    final List<String> headings = new ArrayList<>();
    final List<String> blocks = new ArrayList<>();

    Shape(String path, boolean readable) {
      this.path = path;
      this.readable = readable;
    }

    void tag(String name) {
      if (tagKeys.add(Normalizer.normalize(name, Normalizer.Form.NFC).toLowerCase(Locale.ROOT))) {
        tags.add(name);
      }
    }

    /** Finds each item's text in the note's final text, in order: its line and byte offset. */
    void locate(String text) {
      int pos = 0;
      int from = 0;
      int line = 1;
      long bytes = 0;
      for (Item item : items) {
        int found = text.indexOf(item.source, from);
        if (found < 0) {
          throw new IllegalStateException(path + ": " + item.source + " not where it was written");
        }
        int start = found + item.skip;
        for (int i = pos; i < start; i++) {
          if (text.charAt(i) == '\n') {
            line++;
          }
        }
        bytes += utf8Length(text.substring(pos, start));
        item.line = line;
        item.offset = bytes;
        pos = start;
        from = found + item.source.length();
      }
    }
  }

  /** A property value and its YAML type: string, integer, float, boolean, date, datetime, null, list, map. */
  record Typed(String type, Object value) {}

  /** A heading, a block id or a link, found in the final text by {@code source}. */
  static final class Item {
    final String kind;
    final String source;
    final int skip;
    int level;
    String text;
    String path = "";
    String subpath = "";
    String display;
    boolean embed;
    boolean markdown;
    String meant;
    int line;
    long offset;

    Item(String kind, String source, int skip) {
      this.kind = kind;
      this.source = source;
      this.skip = skip;
    }
  }

  String tagWord() {
    while (true) {
      String word = fold(word());
      if (word.length() >= 2 && word.codePoints().allMatch(Character::isLetter)) {
        return word;
      }
    }
  }

  void frontmatter(StringBuilder text, String path, Shape shape, boolean linksKite) {
    text.append("---\n");
    List<String> tags = new ArrayList<>(List.of(tagWord(), tagWord()));
    boolean project = path.equals(KITE) || (linksKite && random.nextInt(3) > 0);
    if (project) {
      tags.add(0, "project");
    }
    int form = random.nextInt(4);
    if (form == 2) {
      String joined = String.join(", ", tags);
      text.append("tags: ").append(joined).append('\n');
      shape.properties.put("tags", new Typed("string", joined));
    } else if (form == 3) {
      List<Typed> items = new ArrayList<>();
      text.append("tags:\n");
      for (int i = 0; i < tags.size(); i++) {
        String item = i == tags.size() - 1 ? "#" + tags.get(i) : tags.get(i);
        text.append(item.startsWith("#") ? "  - '" + item + "'\n" : "  - " + item + "\n");
        items.add(new Typed("string", item));
      }
      shape.properties.put("tags", new Typed("list", items));
    } else {
      text.append("tags: [").append(String.join(", ", tags)).append("]\n");
      shape.properties.put("tags", new Typed("list", strings(tags)));
    }
    tags.forEach(shape::tag);
    if (path.equals(KITE)) {
      text.append("aliases: [\"Kite project\"]\n");
      shape.properties.put("aliases", new Typed("list", strings(List.of("Kite project"))));
      shape.aliases.add("Kite project");
    } else if (random.nextInt(5) == 0) {
      String alias = capitalized(word()) + " " + word();
      if (random.nextBoolean()) {
        text.append("aliases: [\"").append(alias).append("\"]\n");
        shape.properties.put("aliases", new Typed("list", strings(List.of(alias))));
      } else {
        text.append("aliases: ").append(alias).append('\n');
        shape.properties.put("aliases", new Typed("string", alias));
      }
      shape.aliases.add(alias);
    }
    String created =
        String.format(Locale.ROOT, "2026-%02d-%02d", 1 + random.nextInt(12), 1 + random.nextInt(28));
    text.append("created: ").append(created).append('\n');
    shape.properties.put("created", new Typed("date", created));
    if (random.nextBoolean()) {
      String updated = String.format(Locale.ROOT, "%sT%02d:%02d%s", created, random.nextInt(24),
          random.nextInt(60), random.nextInt(4) == 0 ? ":00" : "");
      text.append("updated: ").append(updated).append('\n');
      shape.properties.put("updated", new Typed("datetime", updated));
    }
    if (linksKite || path.equals(KITE) || random.nextBoolean()) {
      String status = path.equals(KITE) ? "open" : STATUS[random.nextInt(linksKite ? 2 : 3)];
      text.append("status: ").append(status).append('\n');
      shape.properties.put("status", new Typed("string", status));
    }
    if (random.nextBoolean()) {
      long priority = 1 + random.nextInt(5);
      text.append("priority: ").append(priority).append('\n');
      shape.properties.put("priority", new Typed("integer", priority));
    }
    if (random.nextInt(3) == 0) {
      double rating = random.nextInt(10) / 2.0;
      text.append("rating: ").append(rating).append('\n');
      shape.properties.put("rating", new Typed("float", rating));
    }
    if (random.nextInt(3) == 0) {
      boolean done = random.nextBoolean();
      text.append("done: ").append(done).append('\n');
      shape.properties.put("done", new Typed("boolean", done));
    }
    if (random.nextInt(6) == 0) {
      text.append(random.nextBoolean() ? "reviewer:\n" : "reviewer: ~\n");
      shape.properties.put("reviewer", new Typed("null", null));
    }
    if (random.nextInt(5) == 0) {
      String related = "[[" + title(notePaths.get(random.nextInt(notePaths.size()))) + "]]";
      text.append("related: [\"").append(related).append("\"]\n");
      shape.properties.put("related", new Typed("list", strings(List.of(related))));
    }
    if (random.nextInt(8) == 0) {
      String source = word();
      long pages = 1 + random.nextInt(400);
      text.append("meta:\n  source: \"").append(source).append("\"\n  pages: ").append(pages).append('\n');
      LinkedHashMap<String, Typed> meta = new LinkedHashMap<>();
      meta.put("source", new Typed("string", source));
      meta.put("pages", new Typed("integer", pages));
      shape.properties.put("meta", new Typed("map", meta));
    }
    text.append("---\n\n");
  }

  static List<Typed> strings(List<String> values) {
    List<Typed> typed = new ArrayList<>();
    for (String value : values) {
      typed.add(new Typed("string", value));
    }
    return typed;
  }

  void heading(StringBuilder text, Shape shape, int level, String heading) {
    String line = "#".repeat(level) + " " + heading + "\n";
    Item item = new Item("heading", "\n" + line, 1);
    item.level = level;
    item.text = heading;
    shape.items.add(item);
    shape.headings.add(heading);
    text.append(line).append('\n');
  }

  void block(StringBuilder text, Shape shape) {
    String id;
    do {
      id = String.format(Locale.ROOT, "%06x", random.nextInt(1 << 24));
    } while (shape.blocks.contains(id));
    Item item = new Item("block", " ^" + id + "\n", 1);
    item.text = id;
    shape.items.add(item);
    shape.blocks.add(id);
    text.append(" ^").append(id);
  }

  /** A paragraph of 1 or 2 links and 0 to 2 tags. */
  void linksParagraph(StringBuilder text, int index, String path, List<String> paths, Shape shape) {
    text.append(random.nextBoolean() ? "See " : "Related: ");
    int links = 1 + random.nextInt(2);
    for (int k = 0; k < links; k++) {
      if (k > 0) {
        text.append(k + 1 == links ? " and " : ", ");
      }
      link(text, index, path, paths, shape);
    }
    int tags = random.nextInt(3);
    for (int k = 0; k < tags; k++) {
      String tag = random.nextInt(4) == 0 ? tagWord() + "/" + tagWord() : tagWord();
      text.append(" #").append(tag);
      shape.tag(tag);
    }
    text.append(".\n\n");
  }

  /** How Obsidian writes a link to {@code target}: its title when unique, else its path. */
  String linkText(String target) {
    return byName.get(nameKey(target)).size() == 1
        ? title(target)
        : target.substring(0, target.length() - 3);
  }

  /**
   * One link, of a kind drawn with these weights in 40: 14 a title typed by hand (whichever note of
   * that name the rule finds), 6 as Obsidian writes it (the title when unique, else the path), 4
   * with display text, 3 to a heading or block of an earlier note, 1 embed, 1 to a heading of its
   * own note, 4 Markdown links (spaces encoded, every byte past ASCII encoded, in angle brackets),
   * 1 relative Markdown link, 1 into an excluded folder, 1 into a dot folder, 4 to no note.
   */
  void link(StringBuilder text, int index, String path, List<String> paths, Shape shape) {
    int kind = random.nextInt(40);
    String target = paths.get(random.nextInt(paths.size()));
    if (kind < 14 || (index == 0 && kind >= 24 && kind < 27)) {
      wikilink(text, shape, title(target), "", null, false, target);
    } else if (kind < 20) {
      wikilink(text, shape, linkText(target), "", null, false, target);
    } else if (kind < 24) {
      wikilink(text, shape, linkText(target), "", word() + " " + word(), false, target);
    } else if (kind < 27) {
      int earlier = random.nextInt(index);
      String into = paths.get(earlier);
      List<String> blocks = blocksOf.get(earlier);
      if (kind == 26 && !blocks.isEmpty()) {
        String block = blocks.get(random.nextInt(blocks.size()));
        wikilink(text, shape, linkText(into), "^" + block, null, false, into);
      } else {
        List<String> headings = headingsOf.get(earlier);
        String heading = headings.get(random.nextInt(headings.size()));
        wikilink(text, shape, linkText(into), heading, random.nextBoolean() ? null : word(), false, into);
      }
    } else if (kind == 27) {
      wikilink(text, shape, linkText(target), "", null, true, target);
    } else if (kind == 28) {
      String heading = shape.headings.get(random.nextInt(shape.headings.size()));
      wikilink(text, shape, "", heading, null, false, path);
    } else if (kind < 33) {
      String destination = kind == 32 ? "<" + target + ">" : encode(target, kind == 31);
      markdownLink(text, shape, destination, target);
    } else if (kind == 33) {
      markdownLink(text, shape, encode(relative(path, target), false), target);
    } else if (kind == 34) {
      String into = hidden.get(random.nextInt(hidden.size()));
      boolean bare = random.nextBoolean() && byName.get(nameKey(into)).size() == 1;
      wikilink(text, shape, bare ? title(into) : into.substring(0, into.length() - 3), "", null, false, into);
    } else if (kind == 35) {
      String dot = random.nextBoolean() ? ".obsidian/notes-inside" : ".trash/" + title(target);
      wikilink(text, shape, dot, "", null, false, null);
    } else {
      String missing;
      do {
        missing = capitalized(word()) + " " + word() + " " + word();
      } while (byName.containsKey(nameKey(missing + ".md")));
      wikilink(text, shape, missing, "", null, false, null);
    }
  }

  void wikilink(StringBuilder text, Shape shape, String linkPath, String subpath, String display,
      boolean embed, String meant) {
    StringBuilder source = new StringBuilder(embed ? "![[" : "[[").append(linkPath);
    if (!subpath.isEmpty()) {
      source.append('#').append(subpath);
    }
    if (display != null) {
      source.append('|').append(display);
    }
    source.append("]]");
    Item item = new Item("link", source.toString(), 0);
    item.path = linkPath;
    item.subpath = subpath;
    item.display = display;
    item.embed = embed;
    item.meant = meant;
    shape.items.add(item);
    text.append(source);
  }

  void markdownLink(StringBuilder text, Shape shape, String destination, String target) {
    String shown = capitalized(word()) + " " + word();
    String source = "[" + shown + "](" + destination + ")";
    Item item = new Item("link", source, 0);
    item.path = decode(destination.startsWith("<") ? destination.substring(1, destination.length() - 1) : destination);
    item.display = shown;
    item.markdown = true;
    item.meant = target;
    shape.items.add(item);
    text.append(source);
  }

  /** A path as Obsidian writes it in a Markdown link (spaces as %20), or every byte past ASCII too. */
  static String encode(String path, boolean allBytes) {
    StringBuilder out = new StringBuilder();
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c == ' ' || (allBytes && c >= 0x80)) {
        out.append(String.format(Locale.ROOT, "%%%02X", c));
      } else {
        out.append((char) c);
      }
    }
    return new String(out.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
  }

  static String decode(String encoded) {
    byte[] raw = encoded.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[raw.length];
    int n = 0;
    for (int i = 0; i < raw.length; i++) {
      if (raw[i] == '%' && i + 2 < raw.length) {
        out[n++] = (byte) Integer.parseInt(new String(raw, i + 1, 2, StandardCharsets.US_ASCII), 16);
        i += 2;
      } else {
        out[n++] = raw[i];
      }
    }
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }

  /** {@code target} as a path from {@code from}'s folder: {@code ./x.md} or {@code ../y/x.md}. */
  static String relative(String from, String target) {
    String[] a = from.split("/");
    String[] b = target.split("/");
    int common = 0;
    while (common < a.length - 1 && common < b.length - 1 && a[common].equals(b[common])) {
      common++;
    }
    StringBuilder path = new StringBuilder(common == a.length - 1 ? "./" : "");
    for (int i = common; i < a.length - 1; i++) {
      path.append("../");
    }
    for (int i = common; i < b.length; i++) {
      path.append(b[i]).append(i + 1 < b.length ? "/" : "");
    }
    return path.toString();
  }

  /** Rare paragraphs: code and comments whose links and tags are none, a setext heading, tags. */
  void special(StringBuilder text, Shape shape) {
    switch (random.nextInt(4)) {
      case 0 -> text.append("```text\nnote = \"#notatag [[Code sample]]\"\n```\n\n");
      case 1 -> text.append("%% draft: [[Hidden draft]] #hiddentag %%\n\n");
      case 2 -> {
        String heading = capitalized(word()) + " " + word();
        Item item = new Item("heading", "\n" + heading + "\n---\n", 1);
        item.level = 2;
        item.text = heading;
        shape.items.add(item);
        shape.headings.add(heading);
        text.append(heading).append("\n---\n\n");
      }
      default -> {
        text.append("Tags:");
        for (int k = 0; k < 2; k++) {
          String tag = tagWord() + (k == 1 ? "/" + tagWord() : "");
          text.append(" #").append(tag);
          shape.tag(tag);
        }
        text.append("\n\n");
      }
    }
  }

  /** The Paper Kite note's own sections. */
  void kiteSections(StringBuilder text, Shape shape) {
    heading(text, shape, 2, "Plan");
    text.append("Build the frame first, then the sail.");
    block(text, shape);
    text.append("\n\n");
    heading(text, shape, 2, "Risks");
    text.append("The line may snap in a gust; the spar is glued, not pinned; nobody has flown it in"
        + " rain.");
    block(text, shape);
    text.append("\n\n");
    heading(text, shape, 3, "Weather");
    text.append("Wind above forty knots grounds it.\n\n");
    heading(text, shape, 2, "Log");
  }

  /** A note that links to Paper Kite, as a person types it: by its title. */
  void kiteLinks(StringBuilder text, Shape shape) {
    text.append("Progress on ");
    wikilink(text, shape, "Paper Kite", "", null, false, KITE);
    if (random.nextBoolean()) {
      text.append(", see ");
      wikilink(text, shape, "Paper Kite", "Risks", "the risks", false, KITE);
    }
    text.append(".\n\n");
  }

  // ---- the files no server may serve

  void extras(List<String> paths) throws IOException {
    // Obsidian's own folder: settings, and the last-opened list naming planted words' notes.
    Planted first = planted.get(0);
    never(".obsidian/app.json", "{\"alwaysUpdateLinks\": true, \"newFileLocation\": \"folder\"}\n");
    never(".obsidian/workspace.json",
        "{\"lastOpenFiles\": [\"" + first.notes.get(0) + "\"], \"search\": \"" + first.text
            + "\"}\n");
    never(".obsidian/plugins/calendar/main.js", "module.exports = {}; // " + first.text + "\n");
    never(".obsidian/notes-inside.md", "# Not a note\n\n" + first.text + " lives in settings, beside"
        + " [[Paper Kite]].\n");
    // The trash: deleted notes that still hold planted words (a search must not find them here),
    // and links (no backlink may come from them).
    for (int i = 0; i < 20; i++) {
      Planted item = planted.get(i * 10);
      never(".trash/" + title(item.notes.get(0)) + " (deleted " + i + ").md",
          "# Deleted\n\nThis note was deleted. " + item.text + " was in it, with [[Paper Kite]].\n");
    }
    // A name that is not NFC ("Café" with a combining accent): never a note.
    Planted accented = planted.get(PLANTED_WORDS);
    never("Inbox/Cafe\u0301 decomposed.md", "# NFD\n\n" + accented.text + " in an NFD name.\n");
    // Not Markdown: outside **/*.md.
    never("Inbox/attachment.txt", "plain text, not a note: " + first.text + "\n");
    // The excluded folders (bench/vault/policy.json): notes with properties, tags and links into
    // the readable notes, which no answer about those may show.
    for (String path : hidden) {
      Shape shape = new Shape(path, false);
      StringBuilder text = new StringBuilder();
      boolean template = path.startsWith("Templates/");
      text.append("---\ntags: [").append(template ? "template" : "private").append("]\n---\n\n");
      shape.properties.put("tags", new Typed("list", strings(List.of(template ? "template" : "private"))));
      shape.tag(template ? "template" : "private");
      heading(text, shape, 1, title(path));
      text.append("About ");
      wikilink(text, shape, "Paper Kite", "", null, false, KITE);
      text.append(" and ");
      String target = paths.get(random.nextInt(paths.size()));
      wikilink(text, shape, linkText(target), "", null, false, target);
      text.append(template ? ". #template/" + tagWord() + "\n" : ". #private/" + tagWord() + "\n");
      shape.tag(text.substring(text.lastIndexOf("#") + 1, text.length() - 1));
      shape.locate(text.toString());
      shapes.add(shape);
      never(path, text.toString());
    }
  }

  void never(String path, String content) throws IOException {
    write(path, content.getBytes(StandardCharsets.UTF_8));
    neverServed.add(path);
  }

  void write(String path, byte[] bytes) throws IOException {
    Path file = vault.resolve(path);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
    files.put(path, bytes);
  }

  long totalBytes() {
    long total = 0;
    for (byte[] bytes : files.values()) {
      total += bytes.length;
    }
    return total;
  }

  /** SHA-256 over every file's path (UTF-8), a NUL, its length, a NUL and its bytes, in path order. */
  String digest() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (var entry : files.entrySet()) {
        sha.update(entry.getKey().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(String.valueOf(entry.getValue().length).getBytes(StandardCharsets.US_ASCII));
        sha.update((byte) 0);
        sha.update(entry.getValue());
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  // ---- the truth

  void writeTruth() throws IOException {
    StringBuilder json = new StringBuilder();
    json.append("{\n  \"notes\": ").append(notes.size());
    json.append(",\n  \"folders\": ").append(FOLDERS);
    json.append(",\n  \"bytes\": ").append(totalBytes());
    json.append(",\n  \"sha256\": ").append(quote(digest()));
    json.append(",\n  \"neverServed\": [");
    for (int i = 0; i < neverServed.size(); i++) {
      json.append(i == 0 ? "\n    " : ",\n    ").append(quote(neverServed.get(i)));
    }
    json.append("\n  ],\n  \"queries\": [");
    for (int i = 0; i < planted.size(); i++) {
      Planted item = planted.get(i);
      json.append(i == 0 ? "\n    " : ",\n    ");
      json.append("{\"kind\": ").append(quote(item.kind));
      json.append(", \"planted\": ").append(quote(item.text));
      json.append(", \"query\": ").append(quote(item.query));
      json.append(", \"notes\": ").append(list(item.notes));
      json.append(", \"decoys\": ").append(list(item.decoys)).append('}');
    }
    json.append("\n  ]\n}\n");
    Files.writeString(out.resolve("truth.json"), json, StandardCharsets.UTF_8);
    List<String> sorted = new ArrayList<>();
    for (Note note : notes) {
      sorted.add(note.path() + "\t" + note.bytes());
    }
    sorted.sort(CodePoints.ORDER);
    try (OutputStream tsv = Files.newOutputStream(out.resolve("notes.tsv"))) {
      for (String line : sorted) {
        tsv.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  // ---- structure.json

  /** Every note's structure (bench/README.md, "The vault benchmark": the format). */
  void writeStructure() throws IOException {
    TreeMap<String, List<String>> readable = new TreeMap<>();
    for (String path : notePaths) {
      readable.computeIfAbsent(nameKey(path), k -> new ArrayList<>()).add(path);
    }
    StringBuilder json = new StringBuilder(1 << 24);
    json.append("{\n  \"seed\": ").append(seed);
    json.append(",\n  \"rules\": \"docs/knowledge.md\"");
    json.append(",\n  \"policy\": {\"readable\": [\"**/*.md\"], \"exclude\": [\"Private/**\", \"Templates/**\"]}");
    json.append(",\n  \"notes\": [");
    for (int n = 0; n < shapes.size(); n++) {
      Shape shape = shapes.get(n);
      json.append(n == 0 ? "\n    " : ",\n    ");
      json.append("{\"path\": ").append(quote(shape.path));
      json.append(", \"readable\": ").append(shape.readable);
      json.append(", \"title\": ").append(quote(title(shape.path)));
      json.append(", \"aliases\": ").append(list(shape.aliases));
      json.append(", \"tags\": ").append(list(shape.tags));
      json.append(", \"properties\": ");
      typedMap(json, shape.properties);
      StringBuilder headings = new StringBuilder();
      StringBuilder blocks = new StringBuilder();
      StringBuilder links = new StringBuilder();
      for (Item item : shape.items) {
        if (item.kind.equals("heading")) {
          headings.append(headings.length() == 0 ? "" : ", ");
          headings.append("{\"level\": ").append(item.level).append(", \"text\": ").append(quote(item.text));
          headings.append(", \"line\": ").append(item.line).append(", \"offset\": ").append(item.offset).append('}');
        } else if (item.kind.equals("block")) {
          blocks.append(blocks.length() == 0 ? "" : ", ");
          blocks.append("{\"id\": ").append(quote(item.text)).append(", \"line\": ").append(item.line);
          blocks.append(", \"offset\": ").append(item.offset).append('}');
        } else {
          links.append(links.length() == 0 ? "\n      " : ",\n      ");
          links.append("{\"text\": ").append(quote(item.source));
          links.append(", \"line\": ").append(item.line).append(", \"offset\": ").append(item.offset);
          links.append(", \"path\": ").append(quote(item.path));
          links.append(", \"subpath\": ").append(quote(item.subpath));
          links.append(", \"display\": ").append(item.display == null ? "null" : quote(item.display));
          links.append(", \"embed\": ").append(item.embed).append(", \"markdown\": ").append(item.markdown);
          links.append(", \"meant\": ").append(nullable(item.meant));
          links.append(", \"resolved\": ").append(nullable(resolve(readable, item.path, shape.path)));
          links.append(", \"obsidian\": ").append(nullable(resolve(byName, item.path, shape.path)));
          links.append('}');
        }
      }
      json.append(", \"headings\": [").append(headings).append(']');
      json.append(", \"blocks\": [").append(blocks).append(']');
      json.append(", \"links\": [").append(links).append(links.length() == 0 ? "]}" : "\n    ]}");
    }
    json.append("\n  ]\n}\n");
    Files.writeString(out.resolve("structure.json"), json, StandardCharsets.UTF_8);
  }

  static String nullable(String text) {
    return text == null ? "null" : quote(text);
  }

  static void typedMap(StringBuilder json, Map<String, Typed> map) {
    json.append('{');
    boolean first = true;
    for (Map.Entry<String, Typed> entry : map.entrySet()) {
      json.append(first ? "" : ", ").append(quote(entry.getKey())).append(": ");
      typed(json, entry.getValue());
      first = false;
    }
    json.append('}');
  }

  @SuppressWarnings("unchecked")
  static void typed(StringBuilder json, Typed typed) {
    json.append("{\"type\": ").append(quote(typed.type())).append(", \"value\": ");
    Object value = typed.value();
    if (value == null) {
      json.append("null");
    } else if (value instanceof String text) {
      json.append(quote(text));
    } else if (value instanceof List<?> items) {
      json.append('[');
      for (int i = 0; i < items.size(); i++) {
        json.append(i == 0 ? "" : ", ");
        typed(json, (Typed) items.get(i));
      }
      json.append(']');
    } else if (value instanceof Map<?, ?> map) {
      typedMap(json, (Map<String, Typed>) map);
    } else {
      json.append(value);
    }
    json.append('}');
  }

  /**
   * The note a link's path names from the note {@code from}, among the notes of {@code index} (by
   * lower-cased file name), by docs/knowledge.md's rule ("How a link resolves"); written here from
   * that page, apart from the module that implements it, so that each checks the other.
   */
  static String resolve(TreeMap<String, List<String>> index, String linkPath, String from) {
    if (linkPath.isEmpty()) {
      return from;
    }
    String path = Normalizer.normalize(linkPath, Normalizer.Form.NFC);
    String found = resolveName(index, path, from);
    if (found == null && !path.toLowerCase(Locale.ROOT).endsWith(".md")) {
      found = resolveName(index, path + ".md", from);
    }
    return found;
  }

  static String resolveName(TreeMap<String, List<String>> index, String path, String from) {
    String folder = from.contains("/") ? from.substring(0, from.lastIndexOf('/')) : "";
    String lower = path.toLowerCase(Locale.ROOT);
    List<String> candidates = index.getOrDefault(nameKey(path), List.of());
    if (path.startsWith("./") || path.startsWith("../") || path.startsWith("/")) {
      String exact;
      if (path.startsWith("/")) {
        exact = path.replaceFirst("^/+", "");
      } else {
        List<String> parts = new ArrayList<>(folder.isEmpty() ? List.of() : List.of(folder.split("/")));
        for (String part : path.split("/")) {
          if (part.equals("..")) {
            if (parts.isEmpty()) {
              return null;
            }
            parts.remove(parts.size() - 1);
          } else if (!part.equals(".")) {
            parts.add(part);
          }
        }
        exact = String.join("/", parts);
      }
      String best = null;
      for (String candidate : candidates) {
        if (candidate.equals(exact)) {
          return candidate;
        }
        if (candidate.toLowerCase(Locale.ROOT).equals(exact.toLowerCase(Locale.ROOT))
            && (best == null || CodePoints.compare(candidate, best) < 0)) {
          best = candidate;
        }
      }
      return best;
    }
    String beside = (folder.isEmpty() ? path : folder + "/" + path).toLowerCase(Locale.ROOT);
    String best = null;
    int bestRank = 3;
    for (String candidate : candidates) {
      String c = candidate.toLowerCase(Locale.ROOT);
      int rank = c.equals(lower) ? 0 : c.equals(beside) ? 1 : c.endsWith("/" + lower) ? 2 : 3;
      if (rank == 3) {
        continue;
      }
      boolean better = best == null || rank < bestRank;
      if (!better && rank == bestRank) {
        if (candidate.length() != best.length()) {
          better = candidate.length() < best.length();
        } else if (candidate.endsWith(path) != best.endsWith(path)) {
          better = candidate.endsWith(path);
        } else {
          better = CodePoints.compare(candidate, best) < 0;
        }
      }
      if (better) {
        best = candidate;
        bestRank = rank;
      }
    }
    return best;
  }

  static String list(List<String> items) {
    StringBuilder json = new StringBuilder("[");
    for (int i = 0; i < items.size(); i++) {
      json.append(i == 0 ? "" : ", ").append(quote(items.get(i)));
    }
    return json.append(']').toString();
  }

  static String quote(String text) {
    StringBuilder json = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    return json.append('"').toString();
  }
}
