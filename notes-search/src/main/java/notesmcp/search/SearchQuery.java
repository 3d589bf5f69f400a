package notesmcp.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import notesmcp.policy.tools.NoteSearch;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

/**
 * A query as docs/behaviour.md ("search_notes") defines it: words, and phrases in double quotes; a
 * note must hold every one of them, each word anywhere in its text or its name, each phrase's words
 * in that order, next to each other. A word that folds to several (a hyphenated {@code
 * tête-à-tête}, a date {@code 2026-12-01}) is a phrase of them. Immutable.
 */
final class SearchQuery {
  /** The most words a query may hold, phrases' words included. */
  static final int MAX_WORDS = 32;

  /** Each clause: one word, or a phrase of several in order. */
  private final List<List<String>> clauses;

  private SearchQuery(List<List<String>> clauses) {
    this.clauses = clauses;
  }

  static SearchQuery parse(String text) throws NoteSearch.Refused {
    List<List<String>> clauses = new ArrayList<>();
    int words = 0;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      String part;
      if (c == '"') {
        int end = text.indexOf('"', i + 1);
        if (end < 0) {
          throw new NoteSearch.Refused(
              "query has an unmatched double quote at character "
                  + text.codePointCount(0, i)
                  + ": a phrase is written between two double quotes");
        }
        part = text.substring(i + 1, end);
        i = end + 1;
        words += add(clauses, Folding.words(part, MAX_WORDS));
      } else if (Character.isWhitespace(c)) {
        i++;
        continue;
      } else {
        int end = i;
        while (end < text.length()
            && text.charAt(end) != '"'
            && !Character.isWhitespace(text.charAt(end))) {
          end++;
        }
        part = text.substring(i, end);
        i = end;
        words += add(clauses, Folding.words(part, MAX_WORDS));
      }
      if (words > MAX_WORDS) {
        throw new NoteSearch.Refused(
            "query has more than " + MAX_WORDS + " words; the limit is " + MAX_WORDS);
      }
    }
    if (clauses.isEmpty()) {
      throw new NoteSearch.Refused(
          "query holds no word to search for: words are letters and digits, and everything else"
              + " only separates them");
    }
    return new SearchQuery(List.copyOf(clauses));
  }

  private static int add(List<List<String>> clauses, List<String> words) {
    if (words.isEmpty()) {
      return 0;
    }
    // A plain word that folds to several words is a phrase of them; a one-word phrase is a word.
    clauses.add(List.copyOf(words));
    return words.size();
  }

  List<List<String>> clauses() {
    return clauses;
  }

  /** The Lucene query: every clause must match, in the text or in the note's name. */
  Query toLucene(Query folder) {
    BooleanQuery.Builder all = new BooleanQuery.Builder();
    for (List<String> clause : clauses) {
      BooleanQuery.Builder either = new BooleanQuery.Builder();
      either.add(clauseIn(Engine.TEXT, clause), BooleanClause.Occur.SHOULD);
      either.add(clauseIn(Engine.NAME, clause), BooleanClause.Occur.SHOULD);
      all.add(either.build(), BooleanClause.Occur.MUST);
    }
    if (folder != null) {
      all.add(folder, BooleanClause.Occur.FILTER);
    }
    return all.build();
  }

  private static Query clauseIn(String field, List<String> clause) {
    if (clause.size() == 1) {
      return new TermQuery(new Term(field, clause.get(0)));
    }
    return new PhraseQuery(field, clause.toArray(new String[0]));
  }

  /** Where the query matches in a note's text: the first match's offsets, in UTF-16 units. */
  record Match(int start, int end) {}

  /**
   * Whether {@code text} and {@code name} together satisfy every clause (the check made on the text
   * as read again for the answer), and where the first clause found in the text's body (after its
   * front matter: {@link Snippets#bodyStart}) begins; {@code null} when they do not. A clause found
   * only in the name, or only in the front matter, gives no match in the body: then the match is
   * the body's start, twice, unless another clause is found in the body. Streams the text once,
   * keeping the last {@link #MAX_WORDS} words: bounded memory whatever the note.
   */
  Match matchIn(String text, String name) {
    boolean[] inName = new boolean[clauses.size()];
    List<String> nameWords = Folding.words(name, 4096);
    for (int c = 0; c < clauses.size(); c++) {
      inName[c] = contains(nameWords, clauses.get(c));
    }
    boolean[] found = new boolean[clauses.size()];
    int missing = 0;
    for (int c = 0; c < clauses.size(); c++) {
      if (!inName[c]) {
        missing++;
      }
    }
    int body = Snippets.bodyStart(text);
    boolean[] inBody = new boolean[clauses.size()];
    int firstStart = -1;
    int firstEnd = -1;
    ArrayDeque<String> recent = new ArrayDeque<>();
    ArrayDeque<Integer> starts = new ArrayDeque<>();
    try (TokenStream stream = Folding.offsets(text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        recent.addLast(term.toString());
        starts.addLast(offset.startOffset());
        if (recent.size() > MAX_WORDS) {
          recent.removeFirst();
          starts.removeFirst();
        }
        for (int c = 0; c < clauses.size(); c++) {
          if (inBody[c]) {
            continue;
          }
          List<String> clause = clauses.get(c);
          if (endsWith(recent, clause)) {
            int start = startOf(starts, clause.size());
            if (start >= body) {
              inBody[c] = true;
              if (firstStart < 0 || start < firstStart) {
                firstStart = start;
                firstEnd = offset.endOffset();
              }
            }
            if (!found[c]) {
              found[c] = true;
              if (!inName[c]) {
                missing--;
              }
            }
          }
        }
        if (missing == 0 && firstStart >= 0) {
          break; // every clause the name lacks is found, and the first match in the body
        }
      }
      stream.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader does not fail
    }
    if (missing > 0) {
      return null;
    }
    return firstStart < 0 ? new Match(body, body) : new Match(firstStart, firstEnd);
  }

  private static boolean endsWith(ArrayDeque<String> recent, List<String> clause) {
    if (recent.size() < clause.size()) {
      return false;
    }
    int skip = recent.size() - clause.size();
    int i = 0;
    for (String word : recent) {
      if (i >= skip && !word.equals(clause.get(i - skip))) {
        return false;
      }
      i++;
    }
    return true;
  }

  private static int startOf(ArrayDeque<Integer> starts, int words) {
    int skip = starts.size() - words;
    int i = 0;
    for (int start : starts) {
      if (i == skip) {
        return start;
      }
      i++;
    }
    throw new IllegalStateException("fewer starts than words");
  }

  private static boolean contains(List<String> words, List<String> clause) {
    for (int i = 0; i + clause.size() <= words.size(); i++) {
      if (words.subList(i, i + clause.size()).equals(clause)) {
        return true;
      }
    }
    return false;
  }
}
