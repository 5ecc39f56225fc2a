package dev.agora.exchange.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One parser across many documents, good and bad, as the XML server's event loop uses it. */
class XmlRequestParserTest {

    private final XmlRequestParser parser = new XmlRequestParser(100);

    @Test
    void everyDocumentIsParsedAsIfItWereTheFirstWhateverCameBefore() throws ProtocolException {
        XmlRequest.Create expected = new XmlRequest.Create(List.of(new XmlRequest.NewAccount("7", "10")));
        String good = "<create><account id=\"7\" balance=\"10\"/></create>";
        List<String> before = List.of(
                good,
                "<create><account id=\"7\"", // ends inside an element
                "<?xml version=\"1.0\"?><!DOCTYPE create [<!ENTITY x \"y\">]><create/>",
                "<create><account id=\"7\" balance=\"10\"/></create><junk", // not well-formed after the root
                "<create><account id=\"7\" balance=\"10\"/></create><!-- a comment --><?pi after?>\n",
                "<nope/>");
        for (String earlier : before) {
            try {
                parser.parse(bytes(earlier));
            } catch (ProtocolException refused) {
                // Some of these are refused; what matters is the next document.
            }
            assertThat(parser.parse(bytes(good))).as("after %s", earlier).isEqualTo(expected);
        }
    }

    @Test
    void whatFollowsTheRootIsNotPartOfTheRequest() throws ProtocolException {
        XmlRequest request =
                parser.parse(bytes("<transactions id=\"1\"><query id=\"5\"/></transactions><oops></oops>"));

        assertThat(request).isEqualTo(new XmlRequest.Transactions("1", List.of(new XmlRequest.Query("5"))));
    }

    @Test
    void aBrokenDocumentIsStillRefusedAfterThousandsOfGoodOnes() throws ProtocolException {
        for (int i = 0; i < 5_000; i++)
            parser.parse(bytes("<create><account id=\"" + i + "\" balance=\"1\"/></create>"));

        assertThatThrownBy(() -> parser.parse(bytes("<create><account id=\"1\" balance=\"1\"></create>")))
                .isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("invalid XML");
    }

    @Test
    void xmlsOwnEntitiesAndCharacterReferencesAreReadOthersAreRefused() throws ProtocolException {
        assertThat(parser.parse(bytes("<create><account id=\"a&amp;&lt;&#66;\" balance=\"1\"/></create>")))
                .isEqualTo(new XmlRequest.Create(List.of(new XmlRequest.NewAccount("a&<B", "1"))));

        assertThatThrownBy(() -> parser.parse(bytes("<create><account id=\"&nbsp;\" balance=\"1\"/></create>")))
                .hasMessage("invalid XML: Undeclared general entity \"nbsp\"");
    }

    @Test
    void aRefusalSaysWhatIsWrongWithoutTheParsersPosition() {
        assertThatThrownBy(() -> parser.parse(bytes("<create><account id=\"1\" balance=\"1\"></create>")))
                .isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("invalid XML: Unexpected close tag </create>")
                .hasMessageNotContaining("row,col");
    }

    private static byte[] bytes(String xml) {
        return xml.getBytes(StandardCharsets.UTF_8);
    }
}
