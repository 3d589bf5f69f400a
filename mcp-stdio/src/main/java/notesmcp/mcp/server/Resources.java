package notesmcp.mcp.server;

import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import notesmcp.mcp.Protocol.Implementation;

/**
 * The resources a server offers: the seam beside {@link Tools} between this protocol layer, which
 * knows no notes, and the program. The program says what a URI names and what it holds; this layer
 * says how that travels (pages, templates, completion, change streams and their bounds). Called by
 * whichever server thread answers a request, several at once (see CONCURRENCY.md); {@link
 * Changes#changed} by whatever thread the program tells changes from: an implementation serializes
 * its own state.
 */
public interface Resources {
  /**
   * One page of the resources in the program's order, from the position {@code cursor} names (null:
   * the first page).
   *
   * @throws Refused if the cursor is not one the program issued
   */
  Page list(String cursor) throws Refused;

  /** The templates, in a fixed order, on one page. */
  List<Template> templates();

  /**
   * The contents of the resource {@code uri}.
   *
   * @param client the client's self-reported identity, or null (as {@link Tools#call} is given)
   * @param caller who the transport authenticated, or null (stdio), as {@link Tools#call} is given
   * @param cancelled true once the client cancelled the request
   * @throws Refused if {@code uri} names nothing readable now; the message says why
   * @throws java.util.concurrent.CancellationException if the read was cancelled before it ran
   */
  Contents read(String uri, Implementation client, Caller caller, BooleanSupplier cancelled)
      throws Refused;

  /**
   * Values for the argument {@code argument} of the template {@code uriTemplate} that start with
   * {@code value}: at most {@link Completion#MAX_VALUES}.
   *
   * @throws Refused if no template of {@link #templates()} has that URI template and argument
   */
  Completion complete(String uriTemplate, String argument, String value) throws Refused;

  /**
   * The key under which changes to the resource {@code uri} are told ({@link Changes#changed}), or
   * null when {@code uri} can never name a resource here, so a subscription to it is not honoured.
   * Several URIs may share one key (spellings of one resource); the key is the program's business.
   */
  String changeKey(String uri);

  /** Starts telling {@code changes} of every change from now on; called at most once. */
  void listen(Changes changes);

  /** Told of changes to the resources. Must not block: it runs on the program's own threads. */
  interface Changes {
    /**
     * @param keys the {@link #changeKey} keys of the resources made, removed or written
     * @param listChanged whether the list of resources changed
     * @param everything whether the program lost track: then every resource may have changed
     */
    void changed(Set<String> keys, boolean listChanged, boolean everything);
  }

  /** One resource as {@code resources/list} shows it; {@code title} may be null. */
  record Resource(String uri, String name, String title, String mimeType) {}

  /** One page of resources, and the cursor of the next, or null. */
  record Page(List<Resource> resources, String nextCursor) {}

  /**
   * A resource template (RFC 6570) whose one argument {@code argument} the server completes; {@code
   * title} may be null.
   */
  record Template(
      String uriTemplate,
      String name,
      String title,
      String description,
      String mimeType,
      String argument) {}

  /** What {@code resources/read} returns: one text content. */
  record Contents(String uri, String mimeType, String text) {}

  /**
   * Completion values, at most {@link #MAX_VALUES}; {@code total} the number of matches in all (at
   * least {@code values.size()}).
   */
  record Completion(List<String> values, int total) {
    /** The spec's bound on the values of one completion. */
    public static final int MAX_VALUES = 100;

    boolean hasMore() {
      return total > values.size();
    }
  }

  /**
   * A request the program refuses; the message is its text, as the program's tools would say it.
   * {@code notFound}: the URI names no resource the client may read (as opposed to one that cannot
   * be read just now, or a bad cursor).
   */
  final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean notFound;

    public Refused(String message, boolean notFound) {
      super(message, null, false, false);
      this.notFound = notFound;
    }

    public boolean notFound() {
      return notFound;
    }
  }
}
