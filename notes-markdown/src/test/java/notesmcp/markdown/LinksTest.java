package notesmcp.markdown;

import static notesmcp.markdown.FrontmatterTest.unescape;
import static notesmcp.markdown.Notes.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Wikilinks, embeds and Markdown links (docs/knowledge.md, "Links"). */
class LinksTest {
  private static List<Link> links(String note) {
    List<Link> links = parse(note).links();
    for (Link link : links) {
      assertThat(Notes.at(note, link.offset(), link.length())).startsWith(link.embed() ? "!" : "[");
    }
    return links;
  }

  private static Link only(String note) {
    List<Link> links = links(note);
    assertThat(links).hasSize(1);
    return links.get(0);
  }

  /** One link's fields, as "target|path|subpath|display|embed|markdown", and its text. */
  private static String fields(Link link) {
    return String.join(
        "¦",
        link.target(),
        link.path(),
        link.subpath(),
        String.valueOf(link.display()),
        link.embed() ? "embed" : "",
        link.markdown() ? "md" : "");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "[[Target]] ; Target¦Target¦¦null¦¦ ; [[Target]]",
        "[[Target|shown]] ; Target¦Target¦¦shown¦¦ ; [[Target|shown]]",
        "[[Target#Heading]] ; Target#Heading¦Target¦Heading¦null¦¦ ; [[Target#Heading]]",
        "[[Target#^block-1]] ; Target#^block-1¦Target¦^block-1¦null¦¦ ; [[Target#^block-1]]",
        "[[Target#A#B|x]] ; Target#A#B¦Target¦A#B¦x¦¦ ; [[Target#A#B|x]]",
        "[[#Heading]] ; #Heading¦¦Heading¦null¦¦ ; [[#Heading]]",
        "[[#^b]] ; #^b¦¦^b¦null¦¦ ; [[#^b]]",
        "[[Folder/Sub/Target]] ; Folder/Sub/Target¦Folder/Sub/Target¦¦null¦¦ ; [[Folder/Sub/Target]]",
        "[[Target.md]] ; Target.md¦Target.md¦¦null¦¦ ; [[Target.md]]",
        "[[ Target | shown ]] ; ' Target '¦Target¦¦' shown '¦¦ ; [[ Target | shown ]]",
        "![[Target]] ; Target¦Target¦¦null¦embed¦ ; ![[Target]]",
        "![[Pic.png|100x145]] ; Pic.png¦Pic.png¦¦100x145¦embed¦ ; ![[Pic.png|100x145]]",
        "x [[a|b|c]] y ; a¦a¦¦b|c¦¦ ; [[a|b|c]]",
        "| [[Target\\|shown]] | ; Target¦Target¦¦shown¦¦ ; [[Target\\|shown]]",
        "[[Sq]uare]] ; Sq]uare¦Sq]uare¦¦null¦¦ ; [[Sq]uare]]",
        "[[Nested [[Inner]] x]] ; Inner¦Inner¦¦null¦¦ ; [[Inner]]",
        "[[a ![[Inner]] x]] ; Inner¦Inner¦¦null¦embed¦ ; ![[Inner]]",
        "[[https://example.com]] ; https://example.com¦https://example.com¦¦null¦¦ ; [[https://example.com]]",
        "[[Café 東京 🙂]] ; Café 東京 🙂¦Café 東京 🙂¦¦null¦¦ ; [[Café 東京 🙂]]",
        "[[פרויקט]] ; פרויקט¦פרויקט¦¦null¦¦ ; [[פרויקט]]",
        "[[a]]] ; a¦a¦¦null¦¦ ; [[a]]",
        // Markdown links to .md paths.
        "[text](Target.md) ; Target.md¦Target.md¦¦text¦¦md ; [text](Target.md)",
        "[text](<My Note.md>) ; My Note.md¦My Note.md¦¦text¦¦md ; [text](<My Note.md>)",
        "[t](My%20Note.md#Part%202) ; My%20Note.md#Part%202¦My Note.md¦Part 2¦t¦¦md ; [t](My%20Note.md#Part%202)",
        "[t](Sub/We!rd%20(name)%20[x]%20%231.md) ; Sub/We!rd%20(name)%20[x]%20%231.md¦Sub/We!rd (name) [x] #1.md¦¦t¦¦md ; [t](Sub/We!rd%20(name)%20[x]%20%231.md)",
        "[t](a\\(b.md) ; a\\(b.md¦a(b.md¦¦t¦¦md ; [t](a\\(b.md)",
        "[t](Target.MD) ; Target.MD¦Target.MD¦¦t¦¦md ; [t](Target.MD)",
        "[t](./x.md) ; ./x.md¦./x.md¦¦t¦¦md ; [t](./x.md)",
        "[t](../x.md) ; ../x.md¦../x.md¦¦t¦¦md ; [t](../x.md)",
        "[t](x.md 'title') ; x.md¦x.md¦¦t¦¦md ; [t](x.md 'title')",
        "[t]( x.md \"title\" ) ; x.md¦x.md¦¦t¦¦md ; [t]( x.md \"title\" )",
        "[t](x.md (title)) ; x.md¦x.md¦¦t¦¦md ; [t](x.md (title))",
        "[a [nested] text](x.md) ; x.md¦x.md¦¦a [nested] text¦¦md ; [a [nested] text](x.md)",
        "[](x.md) ; x.md¦x.md¦¦¦¦md ; [](x.md)",
        "![alt](x.md) ; x.md¦x.md¦¦alt¦embed¦md ; ![alt](x.md)",
        "[t](%E6%9D%B1%E4%BA%AC.md) ; %E6%9D%B1%E4%BA%AC.md¦東京.md¦¦t¦¦md ; [t](%E6%9D%B1%E4%BA%AC.md)",
        "[t](%FF%FE.md) ; %FF%FE.md¦%FF%FE.md¦¦t¦¦md ; [t](%FF%FE.md)",
        "[t](x%2.md) ; x%2.md¦x%2.md¦¦t¦¦md ; [t](x%2.md)",
      })
  void eachLinkHasItsParts(String row) {
    String[] columns = unescape(row).split(" ; ");
    String note = columns[0];
    Link link = only(note);
    assertThat(fields(link)).isEqualTo(columns[1].replace("'", ""));
    assertThat(Notes.at(note, link.offset(), link.length())).isEqualTo(columns[2]);
    assertThat(link.line()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "'[[]]'",
        "'[[ ]]'",
        "'[[|alias]]'",
        "'[[#]]'",
        "'[[Target]'",
        "'[[Target'",
        "'[[Multi\\nLine]]'",
        "'\\[[Target]]'",
        "'`[[Target]]`'",
        "'%%[[Target]]%%'",
        "'<!-- [[Target]] -->'",
        "'```\\n[[Target]]\\n```'",
        "'[t](https://example.com/x.md)'",
        "'[t](mailto:a@b.md)'",
        "'[t](obsidian://open?file=x.md)'",
        "'[t](//host/x.md)'",
        "'[t](x.png)'",
        "'![](x.png)'",
        "'[t](Target)'",
        "'[t](#heading)'",
        "'[t](Sub/My Note.md)'",
        "'[t](x.md'",
        "'[t] (x.md)'",
        "'[t](<x.md)'",
        "'[t](x.md \"unclosed)'",
        "'[t](x.md\"no space\")'",
        "'[t](a(b.md)'",
        "'[t]()'",
        "'[t](<>)'",
      })
  void theseAreNoLinksToNotes(String note) {
    assertThat(links(unescape(note.substring(1, note.length() - 1)))).isEmpty();
  }

  @Test
  void aLinkTooLongIsText() {
    String target = "a".repeat(Link.MAX_BYTES - 4);
    assertThat(only("[[" + target + "]]").path()).isEqualTo(target);
    assertThat(links("[[" + target + "a]]")).isEmpty();
    String path = "b".repeat(Link.MAX_BYTES - 7) + ".md";
    assertThat(links("[](" + path + ")")).hasSize(1);
    assertThat(links("[](b" + path + ")")).isEmpty();
  }

  @Test
  void linesAndOffsetsCountEveryKindOfLineBreak() {
    String note = "---\na: 1\n---\nx [[One]]\r\n\r\ny [[Two]]\rz\n  [t](Three.md)";
    List<Link> links = links(note);
    assertThat(links).extracting(Link::path).containsExactly("One", "Two", "Three.md");
    assertThat(links).extracting(Link::line).containsExactly(4, 6, 8);
    for (Link link : links) {
      assertThat(Notes.at(note, link.offset(), link.length()))
          .isEqualTo(link.markdown() ? "[t](Three.md)" : "[[" + link.path() + "]]");
    }
  }

  @Test
  void linksInHeadingsQuotesAndListsCount() {
    assertThat(links("# See [[A]]\n> [[B]]\n- [[C]]\n1. [t](D.md)\n| [[E]] |"))
        .extracting(Link::path)
        .containsExactly("A", "B", "C", "D.md", "E");
  }

  @Test
  void offsetsAreBytesNotCharacters() {
    String note = "é東🙂 [[X]]";
    assertThat(only(note).offset()).isEqualTo(2 + 3 + 4 + 1);
  }

  @Test
  void sameNoteLinksAndBlocksAreTold() {
    Link self = only("[[#Risks]]");
    assertThat(self.sameNote()).isTrue();
    assertThat(self.toBlock()).isFalse();
    Link block = only("[[Other#^id]]");
    assertThat(block.sameNote()).isFalse();
    assertThat(block.toBlock()).isTrue();
  }

  @Test
  void aLinkInsideAMarkdownLinksTextIsNotReadTwice() {
    assertThat(links("[see [[A]]](B.md)")).extracting(Link::path).containsExactly("B.md");
    assertThat(links("[x](http://a/#tag) [[C]]")).extracting(Link::path).containsExactly("C");
    assertThat(parse("[x](http://a/#tag)").tags()).isEmpty();
    assertThat(parse("[x](http://a/ #tag)").tags()).extracting(Tag::name).containsExactly("tag");
  }
}
