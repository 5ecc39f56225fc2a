package dev.agora.common.client;

import java.net.URI;
import org.springframework.web.client.RestClient;

/**
 * The replica one attempt of a call goes to: {@link #client()} has it as base URL; {@link #uri()} is there for
 * callers that build absolute URIs themselves (proxies).
 */
public record Replica(String serviceId, URI uri, RestClient client) {

    /** One attempt of a call, on the replica the load balancer chose. */
    @FunctionalInterface
    public interface Attempt<T> {
        T call(Replica replica);
    }
}
