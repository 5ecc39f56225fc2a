package dev.agora.common.security;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.security.oauth2.client.AuthorizedClientServiceOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.InMemoryOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizeRequest;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientProviderBuilder;
import org.springframework.security.oauth2.client.endpoint.OAuth2AccessTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.OAuth2ClientCredentialsGrantRequest;
import org.springframework.security.oauth2.client.endpoint.RestClientClientCredentialsTokenResponseClient;
import org.springframework.security.oauth2.client.http.OAuth2ErrorResponseErrorHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;
import org.springframework.security.oauth2.core.http.converter.OAuth2AccessTokenResponseHttpMessageConverter;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

/**
 * This service's token from the authorization server's {@code POST /oauth2/token} (grant
 * {@code client_credentials}), through Spring Security's OAuth2 client, which keeps it until a minute before it
 * expires. The token endpoint is tried on every authority in turn when one does not answer; a refusal
 * (a wrong secret) is final.
 */
public final class ClientCredentialsTokens implements ServiceTokens {

    private static final String REGISTRATION = "agora";

    private final AuthorizedClientServiceOAuth2AuthorizedClientManager manager;
    private final OAuth2AuthorizeRequest request;

    public ClientCredentialsTokens(AgoraSecurityProperties properties) {
        if (!properties.callsOtherServices()) {
            throw new IllegalStateException("agora.security.client-id and client-secret are needed to call services");
        }
        ClientRegistration registration = ClientRegistration.withRegistrationId(REGISTRATION)
                .clientId(properties.clientId())
                .clientSecret(properties.clientSecret())
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                .authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
                .scope(Roles.INTERNAL_SCOPE)
                .tokenUri(tokenUri(properties.authorities().getFirst()))
                .build();
        var registrations = new InMemoryClientRegistrationRepository(registration);
        this.manager = new AuthorizedClientServiceOAuth2AuthorizedClientManager(
                registrations, new InMemoryOAuth2AuthorizedClientService(registrations));
        manager.setAuthorizedClientProvider(OAuth2AuthorizedClientProviderBuilder.builder()
                .clientCredentials(c -> c.accessTokenResponseClient(new Failover(properties.authorities())))
                .build());
        this.request = OAuth2AuthorizeRequest.withClientRegistrationId(REGISTRATION)
                .principal(properties.clientId())
                .build();
    }

    @Override
    public String bearer() {
        OAuth2AuthorizedClient client = manager.authorize(request);
        if (client == null)
            throw new IllegalStateException(
                    "No token for " + request.getPrincipal().getName());
        return client.getAccessToken().getTokenValue();
    }

    private static String tokenUri(URI authority) {
        return authority.toString().replaceAll("/+$", "") + "/oauth2/token";
    }

    /** The token request to each authority in turn, past those that cannot be reached. */
    private static final class Failover
            implements OAuth2AccessTokenResponseClient<OAuth2ClientCredentialsGrantRequest> {

        private final List<URI> authorities;
        private final RestClientClientCredentialsTokenResponseClient delegate;

        Failover(List<URI> authorities) {
            this.authorities = authorities;
            var requestFactory = new SimpleClientHttpRequestFactory();
            requestFactory.setConnectTimeout(Duration.ofSeconds(1));
            requestFactory.setReadTimeout(Duration.ofSeconds(5));
            this.delegate = new RestClientClientCredentialsTokenResponseClient();
            delegate.setRestClient(RestClient.builder()
                    .requestFactory(requestFactory)
                    .configureMessageConverters(converters -> converters
                            .addCustomConverter(new FormHttpMessageConverter())
                            .addCustomConverter(new OAuth2AccessTokenResponseHttpMessageConverter()))
                    .defaultStatusHandler(new OAuth2ErrorResponseErrorHandler())
                    .build());
        }

        @Override
        public OAuth2AccessTokenResponse getTokenResponse(OAuth2ClientCredentialsGrantRequest grant) {
            OAuth2AuthorizationException unreachable = null;
            for (URI authority : authorities) {
                ClientRegistration at = ClientRegistration.withClientRegistration(grant.getClientRegistration())
                        .tokenUri(tokenUri(authority))
                        .build();
                try {
                    return delegate.getTokenResponse(new OAuth2ClientCredentialsGrantRequest(at));
                } catch (OAuth2AuthorizationException e) {
                    if (!(e.getCause() instanceof ResourceAccessException)) throw e;
                    unreachable = e;
                }
            }
            throw unreachable;
        }
    }
}
