import java.nio.file.Path;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.NIOFSDirectory;

/**
 * What Lucene alone costs a fresh JVM before its first answer (bench/README.md, "Lucene's cold
 * open"): a kept index opened and searched once for one word, with nothing of notes-mcp around it.
 * The floor under a restart's first search that a JVM loading Lucene from its jars cannot go below.
 *
 * <p>Usage: {@code java -cp "JARS" bench/vault/ColdOpen.java INDEX_FOLDER reader|writer [WORD]}:
 * {@code reader} opens the index read-only ({@code DirectoryReader}); {@code writer} as the
 * engine does (an {@code IndexWriter} and a {@code SearcherManager} over it); WORD defaults to
 * {@code kite}. The folder is opened, never written: {@code writer} rolls back. Copy a kept index
 * elsewhere first, without its {@code write.lock}, when a server may hold it. Prints one line:
 * milliseconds to open, then to search.
 */
public class ColdOpen {
  public static void main(String[] args) throws Exception {
    Path folder = Path.of(args[0]);
    boolean writer = args[1].equals("writer");
    String word = args.length > 2 ? args[2] : "kite";
    long start = System.nanoTime();
    NIOFSDirectory directory = new NIOFSDirectory(folder);
    IndexSearcher searcher;
    IndexWriter opened = null;
    SearcherManager searchers = null;
    if (writer) {
      IndexWriterConfig config =
          new IndexWriterConfig().setOpenMode(IndexWriterConfig.OpenMode.APPEND);
      opened = new IndexWriter(directory, config);
      searchers = new SearcherManager(opened, null);
      searcher = searchers.acquire();
    } else {
      searcher = new IndexSearcher(DirectoryReader.open(directory));
    }
    long open = System.nanoTime();
    TopDocs top = searcher.search(new TermQuery(new Term("text", word)), 10);
    long searched = System.nanoTime();
    System.out.printf(
        java.util.Locale.ROOT,
        "%s: open %.1f ms, first search %.1f ms (%d notes hold \"%s\")%n",
        writer ? "writer" : "reader",
        (open - start) / 1e6,
        (searched - open) / 1e6,
        top.totalHits.value,
        word);
    if (opened != null) {
      searchers.release(searcher);
      opened.rollback();
    }
  }
}
