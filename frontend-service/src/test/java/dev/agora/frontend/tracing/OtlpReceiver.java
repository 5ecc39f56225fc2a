package dev.agora.frontend.tracing;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1, as a collector's {@code otlp} receiver answers {@code POST /v1/traces}:
 * each body is an {@link ExportTraceServiceRequest} in protobuf, parsed with the OpenTelemetry project's own classes
 * and kept as {@link Received} spans with their service's name.
 */
final class OtlpReceiver implements AutoCloseable {

    /** One span as received, with the {@code service.name} of the resource that sent it. */
    record Received(String service, Span span) {
        String traceId() {
            return HexFormat.of().formatHex(span.getTraceId().toByteArray());
        }

        String spanId() {
            return HexFormat.of().formatHex(span.getSpanId().toByteArray());
        }

        /** Empty for a trace's root span. */
        String parentSpanId() {
            return HexFormat.of().formatHex(span.getParentSpanId().toByteArray());
        }

        Map<String, String> attributes() {
            return span.getAttributesList().stream()
                    .collect(Collectors.toMap(KeyValue::getKey, kv -> text(kv.getValue()), (a, b) -> a));
        }

        @Override
        public String toString() {
            return service + " " + span.getKind() + " '" + span.getName() + "' " + spanId() + " <- " + parentSpanId();
        }
    }

    private final HttpServer server;
    private final List<Received> spans = new CopyOnWriteArrayList<>();

    OtlpReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/traces", exchange -> {
            try (exchange) {
                if (!"POST".equals(exchange.getRequestMethod())) {
                    exchange.sendResponseHeaders(405, -1);
                    return;
                }
                InputStream body = exchange.getRequestBody();
                if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                    body = new GZIPInputStream(body);
                }
                keep(ExportTraceServiceRequest.parseFrom(body));
                byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
                if (answer.length > 0) exchange.getResponseBody().write(answer);
            }
        });
        server.start();
    }

    /** The endpoint to give {@code MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT}. */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
    }

    List<Received> spans() {
        return List.copyOf(spans);
    }

    private void keep(ExportTraceServiceRequest request) {
        for (ResourceSpans resource : request.getResourceSpansList()) {
            String service = resource.getResource().getAttributesList().stream()
                    .filter(kv -> kv.getKey().equals("service.name"))
                    .map(kv -> text(kv.getValue()))
                    .findFirst()
                    .orElse("?");
            for (ScopeSpans scope : resource.getScopeSpansList()) {
                for (Span span : scope.getSpansList()) spans.add(new Received(service, span));
            }
        }
    }

    private static String text(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case INT_VALUE -> Long.toString(value.getIntValue());
            case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
            case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
            default -> value.toString();
        };
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
