package dev.agora.frontend.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.client.ReplicaRetries;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.loadbalancer.LoadBalancedRetryContext;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.client.MockClientHttpRequest;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/** The response of the request being handled names every repeated call, and only those. */
class FailoverNoticeTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final FailoverNotice notice = new FailoverNotice(meters);
    private final MockHttpServletResponse response = new MockHttpServletResponse();

    @AfterEach
    void noRequest() {
        RequestContextHolder.resetRequestAttributes();
    }

    private LoadBalancedRetryContext call() {
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(new MockHttpServletRequest(), response));
        var context = new LoadBalancedRetryContext(
                null, new MockClientHttpRequest(HttpMethod.GET, URI.create("http://catalog-service/books/1")));
        notice.open(context, null);
        return context;
    }

    @Test
    void eachRepeatedAttemptAddsAnEntryWithItsCauseAndWhenItFailed() {
        var context = call();
        context.setAttribute(ReplicaRetries.CAUSE, "connect");
        notice.onError(context, null, new java.net.ConnectException("refused"));
        context.setAttribute(ReplicaRetries.CAUSE, "io");
        notice.onError(context, null, new java.net.SocketTimeoutException("read timed out"));

        assertThat(response.getHeaders(FailoverNotice.HEADER))
                .hasSize(2)
                .satisfiesExactly(
                        first -> assertThat(first).matches("catalog-service;retry;cause=connect;after=\\d+\\.\\d{3}"),
                        second -> assertThat(second).matches("catalog-service;retry;cause=io;after=\\d+\\.\\d{3}"));
        assertThat(meters.counter("agora.client.failovers", "service", "catalog-service")
                        .count())
                .isEqualTo(2);
    }

    @Test
    void aFailureThatEndsTheCallIsNoRepeat() {
        var context = call();
        context.setAttribute(ReplicaRetries.CAUSE, "server_error");
        context.setExhaustedOnly();
        notice.onError(context, null, new IllegalStateException("500"));

        assertThat(response.getHeaders(FailoverNotice.HEADER)).isEmpty();
        assertThat(meters.find("agora.client.failovers").counter()).isNull();
    }
}
