package dev.agora.exchange.xml;

import dev.agora.exchange.matching.OrderSnapshot;
import dev.agora.exchange.matching.Result;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.util.List;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/** Writes {@code <results>}: one element per request child, in request order, echoing what was sent. */
final class XmlReplyWriter {

    /**
     * The JDK's own writer, not Woodstox's (on the class path for parsing): the protocol's replies escape {@code < > &}
     * in text and also {@code "} in attributes, as the JDK's writer does.
     */
    private static final XMLOutputFactory FACTORY = XMLOutputFactory.newDefaultFactory();

    byte[] results(XmlRequest request, List<Result> results) {
        return write(xml -> {
            if (results.isEmpty()) {
                xml.writeEmptyElement("results");
                return;
            }
            xml.writeStartElement("results");
            for (int i = 0; i < results.size(); i++) {
                child(xml, request.items().get(i), results.get(i));
            }
            xml.writeEndElement();
        });
    }

    /** The reply to a request that could not be read or parsed as a whole. */
    byte[] error(String why) {
        return write(xml -> {
            xml.writeStartElement("results");
            xml.writeStartElement("error");
            xml.writeCharacters(why);
            xml.writeEndElement();
            xml.writeEndElement();
        });
    }

    private static void child(XMLStreamWriter xml, XmlRequest.Item item, Result result) throws XMLStreamException {
        if (result instanceof Result.Rejected rejected) {
            xml.writeStartElement("error");
            switch (item) {
                case XmlRequest.NewAccount account -> attribute(xml, "id", account.id());
                case XmlRequest.NewShares shares -> {
                    attribute(xml, "sym", shares.symbol());
                    attribute(xml, "id", shares.accountId());
                }
                case XmlRequest.PlaceOrder order -> {
                    attribute(xml, "sym", order.symbol());
                    attribute(xml, "amount", order.amount());
                    attribute(xml, "limit", order.limit());
                }
                case XmlRequest.Query query -> attribute(xml, "id", query.orderId());
                case XmlRequest.Cancel cancel -> attribute(xml, "id", cancel.orderId());
                case XmlRequest.Unsupported unsupported -> {}
            }
            xml.writeCharacters(rejected.reason().message());
            xml.writeEndElement();
            return;
        }
        switch (item) {
            case XmlRequest.NewAccount account -> {
                xml.writeEmptyElement("created");
                attribute(xml, "id", account.id());
            }
            case XmlRequest.NewShares shares -> {
                xml.writeEmptyElement("created");
                attribute(xml, "sym", shares.symbol());
                attribute(xml, "id", shares.accountId());
            }
            case XmlRequest.PlaceOrder order -> {
                xml.writeEmptyElement("opened");
                attribute(xml, "sym", order.symbol());
                attribute(xml, "amount", order.amount());
                attribute(xml, "limit", order.limit());
                attribute(xml, "id", Long.toString(((Result.OrderOpened) result).orderId()));
            }
            case XmlRequest.Query query -> {
                xml.writeStartElement("status");
                attribute(xml, "id", query.orderId());
                orderState(xml, ((Result.OrderStatus) result).order(), true);
                xml.writeEndElement();
            }
            case XmlRequest.Cancel cancel -> {
                xml.writeStartElement("canceled");
                attribute(xml, "id", cancel.orderId());
                orderState(xml, ((Result.OrderCanceled) result).order(), false);
                xml.writeEndElement();
            }
            case XmlRequest.Unsupported unsupported -> {
                xml.writeStartElement("error");
                xml.writeCharacters("unsupported element <" + unsupported.element() + ">");
                xml.writeEndElement();
            }
        }
    }

    private static void orderState(XMLStreamWriter xml, OrderSnapshot order, boolean withOpen)
            throws XMLStreamException {
        if (withOpen && order.open() != null) {
            xml.writeEmptyElement("open");
            attribute(xml, "shares", number(order.open()));
        }
        if (order.canceled() != null) {
            xml.writeEmptyElement("canceled");
            attribute(xml, "shares", number(order.canceled().shares()));
            attribute(xml, "time", Long.toString(order.canceled().time()));
        }
        for (OrderSnapshot.SignedFill fill : order.executions()) {
            xml.writeEmptyElement("executed");
            attribute(xml, "shares", number(fill.shares()));
            attribute(xml, "price", number(fill.price()));
            attribute(xml, "time", Long.toString(fill.time()));
        }
    }

    private static String number(BigDecimal value) {
        return value.toPlainString();
    }

    private static void attribute(XMLStreamWriter xml, String name, String value) throws XMLStreamException {
        if (value != null) xml.writeAttribute(name, value);
    }

    @FunctionalInterface
    private interface Body {
        void write(XMLStreamWriter xml) throws XMLStreamException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try {
            XMLStreamWriter xml = FACTORY.createXMLStreamWriter(out, "UTF-8");
            body.write(xml);
            xml.writeEndDocument();
            xml.flush();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("Could not write a reply", e);
        }
        return out.toByteArray();
    }
}
