package notesmcp.markdown;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One note's structure as Obsidian reads it (docs/knowledge.md): its title, front matter properties
 * with tags and aliases, inline tags, links, headings with the sizes of their sections, and block
 * ids. Immutable, and compact: everything is kept in one byte array, and each accessor decodes what
 * it returns (keep a returned list when it is used more than once). Any thread.
 *
 * <p>{@link #parse} takes any bytes and never throws for what they hold; it is linear in their
 * size, and what it keeps is bounded (the constants below): beyond a bound, the items first in the
 * note are kept and {@link #truncated} says which kinds lost some.
 */
public final class Structure {
  /** The largest note read: the policy's largest, 1 MiB. */
  public static final int MAX_NOTE_BYTES = 1 << 20;

  /** The most links kept, in the order the note holds them. */
  public static final int MAX_LINKS = 4096;

  /** The most distinct tags kept, in the order the note first holds them. */
  public static final int MAX_TAGS = 1024;

  /** The most headings kept; sections are measured over all headings. */
  public static final int MAX_HEADINGS = 2048;

  /** The most distinct block ids kept. */
  public static final int MAX_BLOCKS = 1024;

  /** Kinds for {@link #truncated}. */
  public static final int LINKS = 1;

  public static final int TAGS = 2;
  public static final int HEADINGS = 4;
  public static final int BLOCKS = 8;

  /** A block id {@code ^id} that ends a line: the id without {@code ^}, its line and offset. */
  public record Block(String id, int line, int offset) {}

  private final String path;
  private final byte[] data;
  private final int noteBytes;
  private final int bodyOffset;
  private final int truncated;
  private final int tagsAt;
  private final int headingsAt;
  private final int blocksAt;
  private final int propertiesAt;

  private Structure(
      String path, byte[] data, int noteBytes, int bodyOffset, int truncated, int[] starts) {
    this.path = path;
    this.data = data;
    this.noteBytes = noteBytes;
    this.bodyOffset = bodyOffset;
    this.truncated = truncated;
    this.tagsAt = starts[1];
    this.headingsAt = starts[2];
    this.blocksAt = starts[3];
    this.propertiesAt = starts[4];
  }

  /**
   * The structure of the note {@code note} (its bytes; at most {@link #MAX_NOTE_BYTES}) at the
   * vault-relative {@code path}.
   */
  public static Structure parse(byte[] note, String path) {
    return parse(note, path, null);
  }

  /**
   * As {@link #parse(byte[], String)}, telling {@code work} (if not null) what the reading cost.
   */
  static Structure parse(byte[] note, String path, int[] work) {
    if (note.length > MAX_NOTE_BYTES) {
      throw new IllegalArgumentException(
          "a note of " + note.length + " bytes; at most " + MAX_NOTE_BYTES + " are read");
    }
    int n = note.length;
    Collector found = new Collector(note);
    Frontmatter.Block block = Frontmatter.locate(note, n);
    Packed.Writer properties = new Packed.Writer();
    int bodyOffset;
    if (block == null) {
      properties.number(Properties.ABSENT);
      bodyOffset =
          n >= 3 && (note[0] & 0xff) == 0xef && (note[1] & 0xff) == 0xbb && (note[2] & 0xff) == 0xbf
              ? 3
              : 0;
    } else {
      bodyOffset = block.bodyOffset;
      readProperties(note, block, properties, found, work);
    }
    int firstLine = 1 + lineBreaks(note, bodyOffset);
    Body body = new Body(note, n, found);
    body.read(bodyOffset, firstLine);
    if (work != null) {
      work[0] = body.work();
      work[1] = body.budget();
    }
    Packed.Writer out = new Packed.Writer();
    int[] starts = found.write(out);
    int[] all = java.util.Arrays.copyOf(starts, 5);
    all[4] = out.size();
    out.writer(properties);
    return new Structure(path, out.toArray(), n, bodyOffset, found.truncated, all);
  }

  private static void readProperties(
      byte[] note, Frontmatter.Block block, Packed.Writer out, Collector found, int[] work) {
    int length = block.yamlEnd - block.yamlStart;
    if (length > Frontmatter.MAX_BYTES) {
      out.number(Properties.UNREADABLE);
      out.text(
          "front matter is " + length + " bytes; at most " + Frontmatter.MAX_BYTES + " are read");
      return;
    }
    String yaml = new String(note, block.yamlStart, length, StandardCharsets.UTF_8);
    Frontmatter.Result result = Frontmatter.read(yaml, 1 + lineBreaks(note, block.yamlStart));
    if (work != null) {
      work[2] = result.events;
    }
    if (result.problem != null) {
      out.number(Properties.UNREADABLE);
      out.text(result.problem);
      return;
    }
    out.number(Properties.READ);
    Properties.encode(result.properties, out);
    for (String tag : Properties.tags(result.properties)) {
      found.tag(tag, 0);
    }
  }

  /** The line breaks (LF, CR LF, lone CR) in {@code b[0, to)}. */
  static int lineBreaks(byte[] b, int to) {
    int count = 0;
    for (int i = 0; i < to; i++) {
      if (b[i] == '\n' || (b[i] == '\r' && (i + 1 >= b.length || b[i + 1] != '\n'))) {
        count++;
      }
    }
    return count;
  }

  /** The note's vault-relative path, as given to {@link #parse}. */
  public String path() {
    return path;
  }

  /**
   * The note's title, as Obsidian names a note: its file name without {@code .md} (any case). A
   * first {@code # Heading} or a {@code title} property changes nothing.
   */
  public String title() {
    return titleOf(path);
  }

  /** The title of the note at {@code path}: its file name without {@code .md} ({@link #title}). */
  public static String titleOf(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    return name.length() > 3 && name.regionMatches(true, name.length() - 3, ".md", 0, 3)
        ? name.substring(0, name.length() - 3)
        : name;
  }

  /** The note's size in bytes. */
  public int noteBytes() {
    return noteBytes;
  }

  /** Where the body starts: after the front matter block, or after a byte-order mark, else 0. */
  public int bodyOffset() {
    return bodyOffset;
  }

  /** Which kinds ({@link #LINKS}, {@link #TAGS}, {@link #HEADINGS}, {@link #BLOCKS}) lost items. */
  public int truncated() {
    return truncated;
  }

  public boolean truncated(int kind) {
    return (truncated & kind) != 0;
  }

  /** The front matter's properties, read or not. */
  public Properties properties() {
    return Properties.decode(new Packed.Reader(data, propertiesAt));
  }

  /** The aliases the front matter gives ({@link Properties#aliases}). */
  public List<String> aliases() {
    return properties().aliases();
  }

  /** The note's links, in the order it holds them. */
  public List<Link> links() {
    Packed.Reader in = new Packed.Reader(data, 0);
    int count = in.integer();
    List<Link> links = new ArrayList<>(count);
    int offset = 0;
    int line = 1;
    for (int k = 0; k < count; k++) {
      offset += in.integer();
      line += in.integer();
      int length = in.integer();
      int start = in.skip(length);
      boolean wikilink = data[start + (data[start] == '!' ? 1 : 0) + 1] == '[';
      links.add(
          wikilink
              ? Link.wikilink(data, start, start + length, line, offset)
              : Link.markdown(data, start, start + length, line, offset));
    }
    return Collections.unmodifiableList(links);
  }

  /**
   * The links at {@code indexes} (ascending positions in {@link #links()}), in that order: only
   * those are decoded, the others skipped over. For a caller that knows which few links it wants.
   */
  public List<Link> links(int[] indexes) {
    Packed.Reader in = new Packed.Reader(data, 0);
    int count = in.integer();
    List<Link> links = new ArrayList<>(indexes.length);
    int offset = 0;
    int line = 1;
    int next = 0;
    for (int k = 0; k < count && next < indexes.length; k++) {
      offset += in.integer();
      line += in.integer();
      int length = in.integer();
      int start = in.skip(length);
      if (k == indexes[next]) {
        next++;
        boolean wikilink = data[start + (data[start] == '!' ? 1 : 0) + 1] == '[';
        links.add(
            wikilink
                ? Link.wikilink(data, start, start + length, line, offset)
                : Link.markdown(data, start, start + length, line, offset));
      }
    }
    return Collections.unmodifiableList(links);
  }

  /** The note's distinct tags: front matter's first, then inline ones, each once. */
  public List<Tag> tags() {
    Packed.Reader in = new Packed.Reader(data, tagsAt);
    int count = in.integer();
    List<Tag> tags = new ArrayList<>(count);
    for (int k = 0; k < count; k++) {
      int where = in.integer();
      int line = in.integer();
      tags.add(new Tag(in.text(), line, (where & 1) != 0, (where & 2) != 0));
    }
    return Collections.unmodifiableList(tags);
  }

  /** The note's headings in order, each with the size of its section: its outline. */
  public List<Heading> headings() {
    Packed.Reader in = new Packed.Reader(data, headingsAt);
    int count = in.integer();
    List<Heading> headings = new ArrayList<>(count);
    int offset = 0;
    int line = 1;
    for (int k = 0; k < count; k++) {
      int level = in.integer();
      offset += in.integer();
      line += in.integer();
      int bytes = in.integer();
      headings.add(new Heading(level, in.text(), line, offset, bytes));
    }
    return Collections.unmodifiableList(headings);
  }

  /** The note's distinct block ids, in the order it holds them. */
  public List<Block> blocks() {
    Packed.Reader in = new Packed.Reader(data, blocksAt);
    int count = in.integer();
    List<Block> blocks = new ArrayList<>(count);
    int offset = 0;
    int line = 1;
    for (int k = 0; k < count; k++) {
      offset += in.integer();
      line += in.integer();
      blocks.add(new Block(in.text(), line, offset));
    }
    return Collections.unmodifiableList(blocks);
  }

  /**
   * The section that {@code heading} names ({@link Heading#find}), or null: its heading with the
   * section's offset and size in bytes.
   */
  public Heading section(String heading) {
    return Heading.find(headings(), heading);
  }

  /**
   * The bytes of the section that {@code heading} names ({@link #section(String)}), heading line
   * included, from {@code note}, the bytes this structure was parsed from; or null when no heading
   * has that name.
   *
   * @throws IllegalArgumentException when {@code note} is not as long as the note parsed
   */
  public byte[] section(byte[] note, String heading) {
    if (note.length != noteBytes) {
      throw new IllegalArgumentException(
          "a note of " + note.length + " bytes, not the " + noteBytes + " parsed");
    }
    Heading found = section(heading);
    return found == null
        ? null
        : java.util.Arrays.copyOfRange(note, found.offset(), found.offset() + found.bytes());
  }

  /**
   * About how many bytes of heap this structure takes (the path's string, shared with whoever gave
   * it, not counted): the object, its one array and the array's header, with 64-bit compressed
   * references.
   */
  public long retainedBytes() {
    return 48 + align(16 + data.length);
  }

  private static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }
}
