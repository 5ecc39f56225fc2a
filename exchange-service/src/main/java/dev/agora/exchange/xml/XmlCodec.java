package dev.agora.exchange.xml;

import dev.agora.exchange.matching.MatchingEngine;
import dev.agora.exchange.matching.Result;
import java.util.List;

/**
 * The protocol's request-to-reply path without sockets and without the sequencer: parse, apply to an
 * engine, write the reply. For benchmarks and tools that drive an engine directly; the server itself goes
 * through the sequencer so that replies wait for the commit.
 */
public final class XmlCodec {

    private final XmlRequestParser parser;
    private final XmlReplyWriter writer = new XmlReplyWriter();

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
        List<Result> results = new RequestCommand(parsed).applyTo(engine);
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
