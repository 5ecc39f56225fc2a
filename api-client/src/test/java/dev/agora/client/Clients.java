package dev.agora.client;

import java.util.ArrayList;
import java.util.List;
import org.springframework.security.oauth2.client.AuthorizedClientServiceOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.InMemoryOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrations;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.client.OAuth2ClientHttpRequestInterceptor;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/**
 * The generated API interfaces ({@code dev.agora.client.api}) over Spring's {@link RestClient}, acting for one of the
 * demo users: its tokens come from Spring Security's OAuth2 client, which knows nothing but the issuer and the
 * client's id and secret, and finds the token endpoint by discovery (RFC 8414).
 */
final class Clients {

    private final ApiCluster cluster;
    private final OAuth2AuthorizedClientManager tokens;

    Clients(ApiCluster cluster) {
        this.cluster = cluster;
        List<ClientRegistration> registrations = new ArrayList<>();
        ApiCluster.SECRETS.forEach((user, secret) -> registrations.add(registration(cluster.issuer(), user, secret)));
        var repository = new InMemoryClientRegistrationRepository(registrations);
        this.tokens = new AuthorizedClientServiceOAuth2AuthorizedClientManager(
                repository, new InMemoryOAuth2AuthorizedClientService(repository));
    }

    /** A client registration from the issuer's metadata: the demo user's OAuth2 client, client credentials. */
    static ClientRegistration registration(String issuer, String user, String secret) {
        return ClientRegistrations.fromIssuerLocation(issuer)
                .registrationId(user)
                .clientId("demo-" + user)
                .clientSecret(secret)
                .authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
                .build();
    }

    /** A {@link RestClient} on the frontend that sends {@code user}'s token with every request. */
    RestClient restClientFor(String user) {
        var bearer = new OAuth2ClientHttpRequestInterceptor(tokens);
        bearer.setClientRegistrationIdResolver(request -> user);
        return RestClient.builder()
                .baseUrl(cluster.frontend())
                .requestInterceptor(bearer)
                .build();
    }

    /** A {@link RestClient} on the frontend that sends no token. */
    RestClient anonymous() {
        return RestClient.builder().baseUrl(cluster.frontend()).build();
    }

    /** The generated interface {@code api}, acting for {@code user}. */
    <T> T api(Class<T> api, String user) {
        return of(api, restClientFor(user));
    }

    /** The generated interface {@code api}, anonymous. */
    <T> T anonymous(Class<T> api) {
        return of(api, anonymous());
    }

    private static <T> T of(Class<T> api, RestClient client) {
        return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(client))
                .build()
                .createClient(api);
    }
}
