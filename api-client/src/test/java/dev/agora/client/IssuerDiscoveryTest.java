package dev.agora.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.web.client.RestClient;

/**
 * A standard OAuth2 client finds the token endpoint from nothing but the issuer: Spring Security's client reads the
 * authorization server's metadata, gets a token with client credentials and buys through real services.
 */
@EnabledIfSystemProperty(named = "agora.cluster-tests", matches = "true")
class IssuerDiscoveryTest {

    private static final ParameterizedTypeReference<Map<String, Object>> OBJECT = new ParameterizedTypeReference<>() {};

    private static ApiCluster cluster;

    @BeforeAll
    static void start() {
        cluster = ApiCluster.get();
    }

    @Test
    void theMetadataNamesTheIssuerAndEndpointsAtTheFrontendsOwnAddress() {
        Map<String, Object> metadata = RestClient.create(cluster.frontend())
                .get()
                .uri("/.well-known/oauth-authorization-server")
                .retrieve()
                .body(OBJECT);
        assertThat(metadata)
                .containsEntry("issuer", cluster.issuer())
                .containsEntry("token_endpoint", cluster.issuer() + "/oauth2/token")
                .containsEntry("jwks_uri", cluster.issuer() + "/oauth2/jwks");
        assertThat(String.valueOf(metadata.get("grant_types_supported"))).contains("client_credentials");
    }

    @Test
    void theOpenIdDocumentIsNotFoundRatherThanRefused() {
        ResponseEntity<String> answer = RestClient.create(cluster.frontend())
                .get()
                .uri("/.well-known/openid-configuration")
                .retrieve()
                .onStatus(status -> true, (request, response) -> {})
                .toEntity(String.class);
        assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
    }

    @Test
    void aClientConfiguredWithOnlyTheIssuerGetsATokenAndBuys() {
        ClientRegistration discovered =
                Clients.registration(cluster.issuer(), "customer", ApiCluster.SECRETS.get("customer"));
        assertThat(discovered.getProviderDetails().getTokenUri()).isEqualTo(cluster.issuer() + "/oauth2/token");

        ResponseEntity<Map<String, Object>> bought = new Clients(cluster)
                .restClientFor("customer")
                .post()
                .uri("/api/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("bookId", 2, "quantity", 1))
                .retrieve()
                .toEntity(OBJECT);
        assertThat(bought.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        assertThat(bought.getBody()).containsEntry("bookId", 2).containsEntry("quantity", 1);
        assertThat(bought.getBody().get("orderId")).isNotNull();
    }
}
