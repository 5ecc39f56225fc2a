package dev.agora.common.security;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.http.client.support.HttpRequestWrapper;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.security.oauth2.client.AuthorizedClientServiceOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.InMemoryOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizeRequest;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientProviderBuilder;
import org.springframework.security.oauth2.client.endpoint.RestClientClientCredentialsTokenResponseClient;
import org.springframework.security.oauth2.client.http.OAuth2ErrorResponseErrorHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.http.converter.OAuth2AccessTokenResponseHttpMessageConverter;
import org.springframework.web.client.RestClient;

/** This service's own bearer token, for its calls to other services (client credentials, {@code internal} scope). */
@FunctionalInterface
public interface ServiceTokens {

    /** A token valid for at least the next minute; fetched or renewed when needed. */
    String bearer();

    /**
     * Tokens from {@code POST /oauth2/token} via Spring Security's OAuth2 client, kept until a minute before they
     * expire. A request that cannot reach an authority (a replica) goes to the next; a refusal (wrong secret) is final.
     */
    static ServiceTokens clientCredentials(String clientId, String secret, List<URI> authorities) {
        var registrations = new InMemoryClientRegistrationRepository(ClientRegistration.withRegistrationId("agora")
                .clientId(clientId)
                .clientSecret(secret)
                .authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
                .scope(Roles.INTERNAL_SCOPE)
                .tokenUri(tokenUri(authorities.getFirst()).toString())
                .build());
        var timeouts = new SimpleClientHttpRequestFactory();
        timeouts.setConnectTimeout(Duration.ofSeconds(1));
        timeouts.setReadTimeout(Duration.ofSeconds(5));
        var tokenEndpoint = new RestClientClientCredentialsTokenResponseClient();
        tokenEndpoint.setRestClient(RestClient.builder()
                .requestFactory(timeouts)
                .configureMessageConverters(converters -> converters
                        .addCustomConverter(new FormHttpMessageConverter())
                        .addCustomConverter(new OAuth2AccessTokenResponseHttpMessageConverter()))
                .defaultStatusHandler(new OAuth2ErrorResponseErrorHandler())
                .requestInterceptor((request, body, execution) -> {
                    IOException unreachable = null;
                    for (URI authority : authorities) {
                        try {
                            return execution.execute(
                                    new HttpRequestWrapper(request) {
                                        @Override
                                        public URI getURI() {
                                            return tokenUri(authority);
                                        }
                                    },
                                    body);
                        } catch (IOException e) {
                            unreachable = e;
                        }
                    }
                    throw unreachable;
                })
                .build());
        var manager = new AuthorizedClientServiceOAuth2AuthorizedClientManager(
                registrations, new InMemoryOAuth2AuthorizedClientService(registrations));
        manager.setAuthorizedClientProvider(OAuth2AuthorizedClientProviderBuilder.builder()
                .clientCredentials(credentials -> credentials.accessTokenResponseClient(tokenEndpoint))
                .build());
        var request = OAuth2AuthorizeRequest.withClientRegistrationId("agora")
                .principal(clientId)
                .build();
        return () -> manager.authorize(request).getAccessToken().getTokenValue();
    }

    private static URI tokenUri(URI authority) {
        return URI.create(authority.toString().replaceAll("/+$", "") + "/oauth2/token");
    }
}
