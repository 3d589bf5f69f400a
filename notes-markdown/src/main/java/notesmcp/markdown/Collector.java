package notesmcp.markdown;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the reading of one note finds, kept within the bounds of {@link Structure} and written in
 * {@link Packed} form: links as their bytes in the note, distinct tags, headings with their
 * sections' sizes, distinct block ids.
 */
final class Collector {
  private final byte[] note;
  private final Packed.Writer links = new Packed.Writer();
  private int linkCount;
  private int lastLinkOffset;
  private int lastLinkLine = 1;

  private final Map<String, int[]> tagIndex = new LinkedHashMap<>();
  private final Map<String, String> tagNames = new LinkedHashMap<>();

  /**
   * The headings found, {@link #FIELDS} numbers each (level, offset, line, text start, text end,
   * section size), grown as headings come: most notes have a few, and a note is read often.
   */
  private int[] headings = new int[FIELDS * 16];

  private static final int FIELDS = 6;
  private int headingCount;

  /** The open sections, by level: the index of each heading whose section has not ended, or -1. */
  private final int[] openAt = new int[7];

  private final Packed.Writer blocks = new Packed.Writer();
  private final Map<String, Boolean> blockIds = new LinkedHashMap<>();
  private int lastBlockOffset;
  private int lastBlockLine = 1;

  int truncated;
  boolean exhausted;

  Collector(byte[] note) {
    this.note = note;
    java.util.Arrays.fill(openAt, -2);
  }

  void link(int start, int end, int at) {
    if (linkCount == Structure.MAX_LINKS) {
      truncated |= Structure.LINKS;
      return;
    }
    linkCount++;
    links.number(start - lastLinkOffset);
    links.number(at - lastLinkLine);
    links.run(note, start, end - start);
    lastLinkOffset = start;
    lastLinkLine = at;
  }

  /** A tag found inline ({@code line} > 0) or in the front matter ({@code line} 0). */
  void tag(String name, int at) {
    String key = Tag.fold(name);
    int[] seen = tagIndex.get(key);
    if (seen == null) {
      if (tagIndex.size() == Structure.MAX_TAGS) {
        truncated |= Structure.TAGS;
        return;
      }
      tagIndex.put(key, new int[] {at, at > 0 ? 1 : 0, at > 0 ? 0 : 1});
      tagNames.put(key, name);
    } else if (at > 0) {
      if (seen[1] == 0) {
        seen[0] = at;
      }
      seen[1] = 1;
    } else {
      seen[2] = 1;
    }
  }

  void heading(int headingLevel, int at, int atLine, int from, int to) {
    for (int l = headingLevel; l <= 6; l++) {
      close(l, at);
    }
    if (headingCount == Structure.MAX_HEADINGS) {
      truncated |= Structure.HEADINGS;
      openAt[headingLevel] = -1;
      return;
    }
    int k = headingCount++;
    if (FIELDS * headingCount > headings.length) {
      headings = java.util.Arrays.copyOf(headings, headings.length * 2);
    }
    int h = FIELDS * k;
    headings[h] = headingLevel;
    headings[h + 1] = at;
    headings[h + 2] = atLine;
    headings[h + 3] = from;
    headings[h + 4] = to;
    openAt[headingLevel] = k;
  }

  private void close(int headingLevel, int at) {
    int k = openAt[headingLevel];
    if (k >= 0) {
      headings[FIELDS * k + 5] = at - headings[FIELDS * k + 1];
    }
    openAt[headingLevel] = -2;
  }

  void block(String id, int at, int atLine) {
    if (blockIds.containsKey(id)) {
      return;
    }
    if (blockIds.size() == Structure.MAX_BLOCKS) {
      truncated |= Structure.BLOCKS;
      return;
    }
    blockIds.put(id, Boolean.TRUE);
    blocks.number(at - lastBlockOffset);
    blocks.number(atLine - lastBlockLine);
    blocks.text(id);
    lastBlockOffset = at;
    lastBlockLine = atLine;
  }

  void exhausted() {
    exhausted = true;
    truncated |= Structure.LINKS | Structure.TAGS | Structure.BLOCKS;
  }

  /** The note ends at {@code n}: every open section ends there. */
  void end(int n) {
    for (int l = 1; l <= 6; l++) {
      close(l, n);
    }
  }

  /** Writes links, tags, headings and blocks, each after its count; returns where each starts. */
  int[] write(Packed.Writer out) {
    int[] starts = new int[4];
    out.number(linkCount);
    out.writer(links);
    starts[1] = out.size();
    out.number(tagIndex.size());
    for (Map.Entry<String, int[]> tag : tagIndex.entrySet()) {
      int[] seen = tag.getValue();
      out.number(seen[1] | seen[2] << 1);
      out.number(seen[0]);
      out.text(tagNames.get(tag.getKey()));
    }
    starts[2] = out.size();
    out.number(headingCount);
    int lastOffset = 0;
    int lastLine = 1;
    for (int k = 0; k < headingCount; k++) {
      int h = FIELDS * k;
      out.number(headings[h]);
      out.number(headings[h + 1] - lastOffset);
      out.number(headings[h + 2] - lastLine);
      out.number(headings[h + 5]);
      out.run(note, headings[h + 3], headings[h + 4] - headings[h + 3]);
      lastOffset = headings[h + 1];
      lastLine = headings[h + 2];
    }
    starts[3] = out.size();
    out.number(blockIds.size());
    out.writer(blocks);
    return starts;
  }
}
