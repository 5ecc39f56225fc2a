package dev.agora.common.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.mock.http.client.MockClientHttpRequest;
import org.springframework.mock.http.client.MockClientHttpResponse;

class ServerTimingTest {

    @AfterEach
    void endRequest() {
        ServerTiming.end();
    }

    @Test
    void aTiersEntriesArePassedOnUnderItsNameBeforeTheTotal() {
        ServerTiming timing = ServerTiming.begin();

        timing.relay("order", "db;dur=1.25, catalog.db;dur=0.5, cache;desc=hit, total;dur=2.000");

        assertThat(timing.header())
                .startsWith("order.db;dur=1.250, order.catalog.db;dur=0.500, order.cache;desc=hit, "
                        + "order.total;dur=2.000, total;dur=");
    }

    @Test
    void repeatedNamesAddUp() {
        ServerTiming timing = ServerTiming.begin();

        timing.relay("catalog", "db;dur=0.4, db;dur=0.35");
        timing.relay("catalog", "db;dur=1");

        assertThat(timing.header()).startsWith("catalog.db;dur=1.750, total;dur=");
    }

    @Test
    void whatIsNotADurationOrADescriptionIsLeftOut() {
        ServerTiming timing = ServerTiming.begin();

        timing.relay(
                "order",
                "db;dur=abc, ;dur=1, x;noequals, neg;dur=-3, huge;dur=12345678901, fine;dur=0.001234,"
                        + " evil\r\nheader;dur=1, spaced ; dur=2.5");
        timing.relay("order", null);

        assertThat(timing.header()).startsWith("order.fine;dur=0.001, order.spaced;dur=2.500, total;dur=");
    }

    @Test
    void aRequestWithoutTimingRecordsNothingAndStillAnswers() {
        ClientHttpRequestInterceptor interceptor = ServerTiming.relayingInterceptor();

        assertThat(ServerTiming.measure("db", () -> 42)).isEqualTo(42);
        assertThat(ServerTiming.call("order", () -> {
                    intercept(interceptor, timedAnswer("db;dur=1"));
                    return "x";
                }))
                .isEqualTo("x");
    }

    @Test
    void answersReceivedDuringACallArePassedOnUnderItsTierAndNoOthers() {
        ServerTiming timing = ServerTiming.begin();
        ClientHttpRequestInterceptor interceptor = ServerTiming.relayingInterceptor();

        // Outside a call (a health probe): nothing is passed on.
        intercept(interceptor, timedAnswer("db;dur=5"));
        String value = ServerTiming.call("catalog", () -> {
            intercept(interceptor, timedAnswer("db;dur=0.7, total;dur=1"));
            return "value";
        });
        intercept(interceptor, timedAnswer("db;dur=5"));

        assertThat(value).isEqualTo("value");
        assertThat(timing.header())
                .matches(
                        "catalog\\.db;dur=0\\.700, catalog\\.total;dur=1\\.000, catalog;dur=\\d+\\.\\d{3}, total;dur=.*");
    }

    private static MockClientHttpResponse timedAnswer(String serverTiming) {
        MockClientHttpResponse response = new MockClientHttpResponse(new byte[0], 200);
        response.getHeaders().set(ServerTiming.HEADER, serverTiming);
        return response;
    }

    private static void intercept(ClientHttpRequestInterceptor interceptor, MockClientHttpResponse response) {
        try {
            interceptor.intercept(new MockClientHttpRequest(), new byte[0], (request, body) -> response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void measuredTimeIsAddedToTheEntryAlsoWhenTheCallFails() {
        ServerTiming timing = ServerTiming.begin();

        try {
            ServerTiming.measure("db", () -> {
                throw new IllegalStateException("down");
            });
        } catch (IllegalStateException expected) {
            // the entry is still written
        }

        assertThat(timing.header()).matches("db;dur=\\d+\\.\\d{3}, total;dur=\\d+\\.\\d{3}");
    }

    @Test
    void millisecondsAreReadWithoutFloatingPoint() {
        assertThat(ServerTiming.nanosOf("1.5")).isEqualTo(1_500_000);
        assertThat(ServerTiming.nanosOf("0.000001")).isEqualTo(1);
        assertThat(ServerTiming.nanosOf("7")).isEqualTo(7_000_000);
        assertThat(ServerTiming.nanosOf("1.2345678")).isEqualTo(-1);
        assertThat(ServerTiming.nanosOf(".5")).isEqualTo(-1);
        assertThat(ServerTiming.nanosOf("1e3")).isEqualTo(-1);
    }
}
