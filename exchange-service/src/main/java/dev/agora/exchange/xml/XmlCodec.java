package dev.agora.exchange.xml;

import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Result;
import dev.agora.exchange.matching.StoredOrders;
import dev.agora.exchange.matching.StoredResults;
import java.util.List;

/**
 * The protocol's request-to-reply path without sockets and without the sequencer: parse, apply to an
 * engine, write the reply. For benchmarks and tools that drive an engine directly; the server itself goes
 * through the sequencer so that replies wait for the commit.
 */
public final class XmlCodec {

    private final XmlRequestParser parser;
    private final XmlReplyWriter writer = new XmlReplyWriter();
    /** No storage behind a bare engine: an order it no longer holds does not exist here. */
    private final StoredResults stored = new StoredResults(StoredOrders.NONE, 100_000);

    public XmlCodec(int maxItems) {
        this.parser = new XmlRequestParser(maxItems);
    }

    /** Parses a request and answers it from the engine, exactly as the server would. */
    public byte[] apply(byte[] request, MatchingEngine engine) {
        XmlRequest parsed;
        try {
            parsed = parser.parse(request);
        } catch (ProtocolException e) {
            return writer.error(e.getMessage());
        }
        List<Result> results = stored.completeAll(new RequestCommand(parsed).applyTo(engine));
        return writer.results(parsed, results);
    }

    /** Parses only; returns the number of children, or -1 when the request is not valid. */
    public int parse(byte[] request) {
        try {
            return parser.parse(request).items().size();
        } catch (ProtocolException e) {
            return -1;
        }
    }
}
