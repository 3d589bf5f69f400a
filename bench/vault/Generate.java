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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
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
 * <p>Run from the repository root: {@code java -cp untrusted-text/target/classes
 * bench/vault/Generate.java --out DIR [--seed N]} (or {@code bench/vault/generate}, which builds
 * untrusted-text first if it must: the listing's order is the program's own, {@code CodePoints}). It writes DIR/vault/ (the vault),
 * DIR/truth.json (the planted words, their notes, the queries, the files never to be served) and
 * DIR/notes.tsv (every note's path and size in code-point order), and prints a SHA-256 over every
 * file's path and bytes. See bench/README.md, "The vault benchmark".
 */
public final class Generate {
  static final int FOLDERS = 200;
  static final int NOTES_PER_FOLDER = 50;
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
    this.random = new Random(seed);
    this.out = out;
    this.vault = out.resolve("vault");
  }

  public static void main(String[] args) throws IOException {
    long seed = 20261201L;
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        default -> {
          System.err.println("usage: java bench/vault/Generate.java --out DIR [--seed N]");
          System.exit(2);
        }
      }
    }
    if (out == null) {
      System.err.println("usage: java bench/vault/Generate.java --out DIR [--seed N]");
      System.exit(2);
    }
    if (Files.exists(out.resolve("vault"))) {
      System.err.println("Generate: " + out.resolve("vault") + " exists; remove it first");
      System.exit(2);
    }
    long start = System.nanoTime();
    Generate generate = new Generate(seed, out);
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
      for (int n = 0; n < NOTES_PER_FOLDER; n++) {
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
    for (int i = 0; i < paths.size(); i++) {
      String text = noteText(paths.get(i), sizes.get(i), plants.get(i), paths);
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      if (bytes.length < MIN_BYTES || bytes.length > MAX_BYTES) {
        throw new IllegalStateException(paths.get(i) + " came out " + bytes.length + " bytes");
      }
      write(paths.get(i), bytes);
      notes.add(new Note(paths.get(i), bytes.length, plants.get(i)));
    }
    extras(paths);
    writeTruth();
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

  String noteText(String path, int target, List<Planted> plants, List<String> paths) {
    StringBuilder text = new StringBuilder(target + 256);
    text.append("---\ntags: [").append(word()).append(", ").append(word()).append("]\n");
    text.append(String.format(Locale.ROOT, "created: 2026-%02d-%02d\n", 1 + random.nextInt(12),
        1 + random.nextInt(28)));
    text.append("---\n\n# ").append(title(path)).append("\n\n");
    // Where each planted item goes: a byte offset, so some land past the first 16 KiB.
    List<Integer> at = new ArrayList<>();
    for (int p = 0; p < plants.size(); p++) {
      at.add(random.nextInt(Math.max(1, target - 200)));
    }
    int bytes = utf8Length(text);
    while (bytes < target) {
      int before = text.length();
      int kind = random.nextInt(10);
      if (kind == 0) {
        text.append("## ").append(capitalized(word())).append(' ').append(word()).append("\n\n");
      } else if (kind <= 2) {
        int items = 2 + random.nextInt(5);
        for (int i = 0; i < items; i++) {
          text.append(random.nextInt(3) == 0 ? "- [ ] " : "- ");
          sentence(text, 4 + random.nextInt(8), false);
          text.append('\n');
        }
        text.append('\n');
      } else if (kind == 3) {
        text.append("See [[").append(title(paths.get(random.nextInt(paths.size()))))
            .append("]] and #").append(fold(word()).replace(' ', '-')).append(".\n\n");
      } else {
        int sentences = 2 + random.nextInt(6);
        for (int s = 0; s < sentences; s++) {
          sentence(text, 6 + random.nextInt(16), true);
          text.append(' ');
        }
        text.setLength(text.length() - 1);
        text.append("\n\n");
      }
      bytes += utf8Length(text, before);
      // Plant what is due here, inside the paragraph just written.
      for (int p = 0; p < plants.size(); p++) {
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

  // ---- the files no server may serve

  void extras(List<String> paths) throws IOException {
    // Obsidian's own folder: settings, and the last-opened list naming planted words' notes.
    Planted first = planted.get(0);
    never(".obsidian/app.json", "{\"alwaysUpdateLinks\": true, \"newFileLocation\": \"folder\"}\n");
    never(".obsidian/workspace.json",
        "{\"lastOpenFiles\": [\"" + first.notes.get(0) + "\"], \"search\": \"" + first.text
            + "\"}\n");
    never(".obsidian/plugins/calendar/main.js", "module.exports = {}; // " + first.text + "\n");
    never(".obsidian/notes-inside.md", "# Not a note\n\n" + first.text + " lives in settings.\n");
    // The trash: deleted notes that still hold planted words (a search must not find them here).
    for (int i = 0; i < 20; i++) {
      Planted item = planted.get(i * 10);
      never(".trash/" + title(item.notes.get(0)) + " (deleted " + i + ").md",
          "# Deleted\n\nThis note was deleted. " + item.text + " was in it.\n");
    }
    // A name that is not NFC ("Café" with a combining accent): never a note.
    Planted accented = planted.get(PLANTED_WORDS);
    never("Inbox/Cafe\u0301 decomposed.md", "# NFD\n\n" + accented.text + " in an NFD name.\n");
    // Not Markdown: outside **/*.md.
    never("Inbox/attachment.txt", "plain text, not a note: " + first.text + "\n");
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
