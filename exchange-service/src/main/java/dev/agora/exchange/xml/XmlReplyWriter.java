package dev.agora.exchange.xml;

import dev.agora.exchange.matching.OrderSnapshot;
import dev.agora.exchange.matching.Result;
import java.util.List;

/** Writes {@code <results>}: one element per request child, in request order, echoing what was sent. */
final class XmlReplyWriter {

    byte[] results(XmlRequest request, List<Result> results) {
        XmlBytes xml = new XmlBytes();
        if (results.isEmpty()) return xml.open("results").closeEmpty().toByteArray();
        xml.open("results").close();
        for (int i = 0; i < results.size(); i++) {
            child(xml, request.items().get(i), results.get(i));
        }
        return xml.end("results").toByteArray();
    }

    /** The reply to a request that could not be read or parsed as a whole. */
    byte[] error(String why) {
        return new XmlBytes()
                .open("results")
                .close()
                .open("error")
                .close()
                .text(why)
                .end("error")
                .end("results")
                .toByteArray();
    }

    private static void child(XmlBytes xml, XmlRequest.Item item, Result result) {
        if (result instanceof Result.Rejected rejected) {
            xml.open("error");
            switch (item) {
                case XmlRequest.NewAccount account -> xml.attribute("id", account.id());
                case XmlRequest.NewShares shares ->
                    xml.attribute("sym", shares.symbol()).attribute("id", shares.accountId());
                case XmlRequest.PlaceOrder order ->
                    xml.attribute("sym", order.symbol())
                            .attribute("amount", order.amount())
                            .attribute("limit", order.limit());
                case XmlRequest.Query query -> xml.attribute("id", query.orderId());
                case XmlRequest.Cancel cancel -> xml.attribute("id", cancel.orderId());
                case XmlRequest.Unsupported unsupported -> {}
            }
            xml.close().text(rejected.reason().message()).end("error");
            return;
        }
        switch (item) {
            case XmlRequest.NewAccount account ->
                xml.open("created").attribute("id", account.id()).closeEmpty();
            case XmlRequest.NewShares shares ->
                xml.open("created")
                        .attribute("sym", shares.symbol())
                        .attribute("id", shares.accountId())
                        .closeEmpty();
            case XmlRequest.PlaceOrder order ->
                xml.open("opened")
                        .attribute("sym", order.symbol())
                        .attribute("amount", order.amount())
                        .attribute("limit", order.limit())
                        .attribute("id", Long.toString(((Result.OrderOpened) result).orderId()))
                        .closeEmpty();
            case XmlRequest.Query query -> {
                xml.open("status").attribute("id", query.orderId()).close();
                orderState(xml, ((Result.OrderStatus) result).order(), true);
                xml.end("status");
            }
            case XmlRequest.Cancel cancel -> {
                xml.open("canceled").attribute("id", cancel.orderId()).close();
                orderState(xml, ((Result.OrderCanceled) result).order(), false);
                xml.end("canceled");
            }
            case XmlRequest.Unsupported unsupported ->
                xml.open("error")
                        .close()
                        .text("unsupported element <" + unsupported.element() + ">")
                        .end("error");
        }
    }

    private static void orderState(XmlBytes xml, OrderSnapshot order, boolean withOpen) {
        if (withOpen && order.open() != null) {
            xml.open("open").attribute("shares", order.open().toPlainString()).closeEmpty();
        }
        if (order.canceled() != null) {
            xml.open("canceled")
                    .attribute("shares", order.canceled().shares().toPlainString())
                    .attribute("time", Long.toString(order.canceled().time()))
                    .closeEmpty();
        }
        for (OrderSnapshot.SignedFill fill : order.executions()) {
            xml.open("executed")
                    .attribute("shares", fill.shares().toPlainString())
                    .attribute("price", fill.price().toPlainString())
                    .attribute("time", Long.toString(fill.time()))
                    .closeEmpty();
        }
    }
}
