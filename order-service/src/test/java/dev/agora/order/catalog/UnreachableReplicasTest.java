package dev.agora.order.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.mock.http.client.MockClientHttpRequest;
import org.springframework.mock.http.client.MockClientHttpResponse;

class UnreachableReplicasTest {

    private static final ServiceInstance A = replica(8180);
    private static final ServiceInstance B = replica(8181);
    private static final List<ServiceInstance> BOTH = List.of(A, B);

    private final UnreachableReplicas unreachable = new UnreachableReplicas(Duration.ofMinutes(1));

    @Test
    void withNothingUnreachableEveryHealthyReplicaIsACandidate() {
        assertThat(unreachable.candidates(BOTH, () -> BOTH)).containsExactly(A, B);
    }

    @Test
    void aReplicaACallCouldNotReachIsSkipped() {
        fail(A);

        assertThat(unreachable.candidates(BOTH, () -> BOTH)).containsExactly(B);
    }

    @Test
    void anAnswerMakesAReplicaACandidateAgain() throws IOException {
        fail(A);
        answer(A);

        assertThat(unreachable.candidates(BOTH, () -> BOTH)).containsExactly(A, B);
    }

    @Test
    void withNoHealthyReplicaLeftTheDiscoveredOnesNotFoundUnreachableAreTried() {
        fail(A);

        assertThat(unreachable.candidates(List.of(A), () -> BOTH)).containsExactly(B);
        assertThat(unreachable.candidates(List.of(), () -> BOTH)).containsExactly(B);
    }

    @Test
    void whenEveryReplicaFailedTheOneThatFailedLongestAgoIsTried() throws InterruptedException {
        fail(A);
        Thread.sleep(5);
        fail(B);

        assertThat(unreachable.candidates(BOTH, () -> BOTH)).containsExactly(A);
    }

    @Test
    void ejectionEnds() throws InterruptedException {
        UnreachableReplicas briefly = new UnreachableReplicas(Duration.ofMillis(20));
        assertThatThrownBy(() -> briefly.intercept(request(A), new byte[0], refusing()))
                .isInstanceOf(ConnectException.class);
        assertThat(briefly.candidates(BOTH, () -> BOTH)).containsExactly(B);

        Thread.sleep(50);

        assertThat(briefly.candidates(BOTH, () -> BOTH)).containsExactly(A, B);
    }

    private void fail(ServiceInstance replica) {
        assertThatThrownBy(() -> unreachable.intercept(request(replica), new byte[0], refusing()))
                .isInstanceOf(ConnectException.class);
    }

    private void answer(ServiceInstance replica) throws IOException {
        ClientHttpRequestExecution answering =
                (request, body) -> new MockClientHttpResponse(new byte[0], HttpStatus.OK);
        try (ClientHttpResponse response = unreachable.intercept(request(replica), new byte[0], answering)) {
            assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        }
    }

    private static ClientHttpRequestExecution refusing() {
        return (request, body) -> {
            throw new ConnectException("Connection refused");
        };
    }

    private static MockClientHttpRequest request(ServiceInstance replica) {
        return new MockClientHttpRequest(HttpMethod.POST, URI.create(replica.getUri() + "/internal/reservations"));
    }

    private static ServiceInstance replica(int port) {
        return new DefaultServiceInstance("catalog-" + port, "catalog-service", "127.0.0.1", port, false);
    }
}
