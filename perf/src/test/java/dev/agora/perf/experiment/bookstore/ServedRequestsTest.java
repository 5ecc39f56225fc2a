package dev.agora.perf.experiment.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServedRequestsTest {

    @Test
    void servedRequestsCountEverythingButActuator() {
        String prometheus =
                """
                # HELP http_server_requests_seconds
                http_server_requests_seconds_count{method="GET",status="200",uri="/books/{id}"} 12.0
                http_server_requests_seconds_count{method="GET",status="200",uri="/actuator/health/readiness"} 40.0
                http_server_requests_seconds_count{method="POST",status="200",uri="/internal/reservations"} 3
                http_server_requests_seconds_sum{method="GET",status="200",uri="/books/{id}"} 0.3
                """;

        assertThat(ServedRequests.parse(prometheus)).hasValue(15);
        assertThat(ServedRequests.parse("jvm_threads_live 12")).isEmpty();
        assertThat(ServedRequests.parse("http_server_requests_seconds_count{uri=\"/actuator/prometheus\"} 2"))
                .hasValue(0);
    }
}
