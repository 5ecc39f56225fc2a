package dev.agora.exchange.xml;

import com.ctc.wstx.stax.WstxInputFactory;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Parses a request with StAX (Woodstox), hardened: DTDs are refused outright (no entity expansion, no external
 * entities, no billion laughs), entity references other than XML's five are errors, nesting depth and the number of
 * children are bounded. Not thread-safe: one parser per thread (the XML server parses on its event loop).
 *
 * <p>Woodstox rather than the JDK's built-in StAX: the JDK's factory resets its security limits and properties for
 * every document, most of what parsing a small request cost; a Woodstox reader is made from symbol tables its factory
 * keeps (perf/reports/exchange-xml-parsers.md as of commit e12637f, in git history, has the profile).
 */
final class XmlRequestParser {

    private static final int MAX_DEPTH = 16;

    private final int maxItems;
    private final XMLInputFactory factory = newFactory();

    XmlRequestParser(int maxItems) {
        this.maxItems = maxItems;
    }

    private static XMLInputFactory newFactory() {
        XMLInputFactory factory = new WstxInputFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        // With no DTD nothing declares an entity, so replacing leaves only XML's five and character references,
        // and makes any other reference an error, also in an attribute (where Woodstox, not replacing, would
        // silently drop it).
        factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        return factory;
    }

    XmlRequest parse(byte[] xml) throws ProtocolException {
        XMLStreamReader reader = null;
        try {
            reader = factory.createXMLStreamReader(new ByteArrayInputStream(xml));
            nextElement(reader);
            return switch (reader.getLocalName()) {
                case "create" -> new XmlRequest.Create(createItems(reader));
                case "transactions" ->
                    new XmlRequest.Transactions(reader.getAttributeValue(null, "id"), transactionItems(reader));
                default -> throw new ProtocolException("unsupported request <" + reader.getLocalName() + ">");
            };
        } catch (XMLStreamException | RuntimeException e) {
            throw new ProtocolException("invalid XML: " + explanation(e.getMessage()));
        } finally {
            if (reader != null) {
                try {
                    reader.close();
                } catch (XMLStreamException ignored) {
                    // Nothing is held open: the source is a byte array.
                }
            }
        }
    }

    private List<XmlRequest.Item> createItems(XMLStreamReader reader) throws XMLStreamException, ProtocolException {
        List<XmlRequest.Item> items = new ArrayList<>();
        while (nextChildOrEnd(reader)) {
            switch (reader.getLocalName()) {
                case "account" -> {
                    add(items, new XmlRequest.NewAccount(attribute(reader, "id"), attribute(reader, "balance")));
                    skipElement(reader, 2);
                }
                case "symbol" -> {
                    String symbol = attribute(reader, "sym");
                    while (nextChildOrEnd(reader)) {
                        if (reader.getLocalName().equals("account")) {
                            String accountId = attribute(reader, "id");
                            add(items, new XmlRequest.NewShares(symbol, accountId, text(reader)));
                        } else {
                            add(items, new XmlRequest.Unsupported(reader.getLocalName()));
                            skipElement(reader, 3);
                        }
                    }
                }
                default -> {
                    add(items, new XmlRequest.Unsupported(reader.getLocalName()));
                    skipElement(reader, 2);
                }
            }
        }
        return items;
    }

    private List<XmlRequest.Item> transactionItems(XMLStreamReader reader)
            throws XMLStreamException, ProtocolException {
        List<XmlRequest.Item> items = new ArrayList<>();
        while (nextChildOrEnd(reader)) {
            XmlRequest.Item item =
                    switch (reader.getLocalName()) {
                        case "order" ->
                            new XmlRequest.PlaceOrder(
                                    attribute(reader, "sym"), attribute(reader, "amount"), attribute(reader, "limit"));
                        case "query" -> new XmlRequest.Query(attribute(reader, "id"));
                        case "cancel" -> new XmlRequest.Cancel(attribute(reader, "id"));
                        default -> new XmlRequest.Unsupported(reader.getLocalName());
                    };
            add(items, item);
            skipElement(reader, 2);
        }
        return items;
    }

    private void add(List<XmlRequest.Item> items, XmlRequest.Item item) throws ProtocolException {
        if (items.size() >= maxItems) throw new ProtocolException("more than " + maxItems + " children");
        items.add(item);
    }

    /** Advances to the root element, refusing a DTD on the way. */
    private static void nextElement(XMLStreamReader reader) throws XMLStreamException, ProtocolException {
        while (reader.hasNext()) {
            int event = reader.next();
            if (event == XMLStreamConstants.DTD) throw new ProtocolException("DTDs are not allowed");
            if (event == XMLStreamConstants.START_ELEMENT) return;
        }
        throw new ProtocolException("no root element");
    }

    /**
     * Advances to the next child start element of the current element (true) or to its end element (false).
     * Text between children is ignored.
     */
    private static boolean nextChildOrEnd(XMLStreamReader reader) throws XMLStreamException {
        while (reader.hasNext()) {
            int event = reader.next();
            if (event == XMLStreamConstants.START_ELEMENT) return true;
            if (event == XMLStreamConstants.END_ELEMENT) return false;
            if (event == XMLStreamConstants.ENTITY_REFERENCE) {
                throw new XMLStreamException("entity references are not allowed");
            }
        }
        throw new XMLStreamException("document ended inside an element");
    }

    /** Skips to the end of the current element, with its content, bounding how deep that content nests. */
    private static void skipElement(XMLStreamReader reader, int depth) throws XMLStreamException, ProtocolException {
        int open = 1;
        while (open > 0) {
            int event = reader.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                open++;
                if (depth + open > MAX_DEPTH) throw new ProtocolException("elements nest too deeply");
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                open--;
            } else if (event == XMLStreamConstants.ENTITY_REFERENCE) {
                throw new XMLStreamException("entity references are not allowed");
            }
        }
    }

    /** The text of a leaf element, trimmed; it must not contain elements. */
    private static String text(XMLStreamReader reader) throws XMLStreamException {
        StringBuilder text = new StringBuilder();
        while (true) {
            int event = reader.next();
            switch (event) {
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE ->
                    text.append(reader.getText());
                case XMLStreamConstants.END_ELEMENT -> {
                    return text.toString().strip();
                }
                case XMLStreamConstants.COMMENT, XMLStreamConstants.PROCESSING_INSTRUCTION -> {}
                default -> throw new XMLStreamException("<account> inside <symbol> must hold only a number");
            }
            if (text.length() > 1_000) throw new XMLStreamException("share count is too long");
        }
    }

    private static String attribute(XMLStreamReader reader, String name) {
        return reader.getAttributeValue(null, name);
    }

    /**
     * The parser's own explanation without its position: Woodstox puts the position on a line of its own after the
     * explanation ("... at [row,col {unknown-source}]: [1,9]").
     */
    private static String explanation(String message) {
        if (message == null) return "unreadable";
        String line = message.lines()
                .map(String::strip)
                .filter(part -> !part.isEmpty() && !part.startsWith("at [row,col"))
                .findFirst()
                .orElse("unreadable");
        return line.length() > 200 ? line.substring(0, 200) : line;
    }
}
