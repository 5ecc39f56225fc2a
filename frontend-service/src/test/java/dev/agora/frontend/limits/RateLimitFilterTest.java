package dev.agora.frontend.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.frontend.limits.RateLimitSettings.Per;
import dev.agora.frontend.limits.RateLimitSettings.RateRule;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/**
 * The rate limits on requests: a caller over its rate is refused with a problem and told when to come back, without
 * holding up other callers or other kinds of requests; IPv6 callers are counted by their /64, IPv4 callers by their
 * address. (That the address limits run before the token or the secret is checked is shown on a real frontend,
 * {@code ResourceBoundsTest}.)
 */
class RateLimitFilterTest {

    private static final RateRule ITEM_WRITES = new RateRule(
            "item-writes", Per.CALLER, List.of("POST"), List.of("/public/items"), 3, Duration.ofMinutes(1));

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void aCallerOverItsRateIsToldWhenToComeBackAndOthersAreNotHeldUp() throws Exception {
        var filter = new RateLimitFilter(Per.CALLER, List.of(ITEM_WRITES), new SimpleMeterRegistry());
        for (int i = 0; i < 3; i++)
            assertThat(send(filter, "POST", "/public/items", "erin").getStatus())
                    .isEqualTo(200);

        MockHttpServletResponse refused = send(filter, "POST", "/public/items", "erin");
        assertThat(refused.getStatus()).isEqualTo(429);
        assertThat(refused.getContentType()).contains("application/problem+json");
        assertThat(refused.getContentAsString()).contains("too-many-requests").contains("item-writes");
        assertThat(Long.parseLong(refused.getHeader("Retry-After"))).isBetween(1L, 60L);

        assertThat(send(filter, "POST", "/public/items", "frank").getStatus())
                .as("another caller")
                .isEqualTo(200);
        assertThat(send(filter, "GET", "/public/items", "erin").getStatus())
                .as("another kind of request by the same caller")
                .isEqualTo(200);
    }

    @Test
    void anAddressLimitCountsEveryRequestFromTheAddressWhateverItsToken() throws Exception {
        var pings = new RateRule("pings", Per.ADDRESS, List.of(), List.of("/internal/ping"), 2, Duration.ofMinutes(1));
        var filter = new RateLimitFilter(Per.ADDRESS, List.of(pings), new SimpleMeterRegistry());
        assertThat(send(filter, "GET", "/internal/ping", "order-service").getStatus())
                .isEqualTo(200);
        assertThat(send(filter, "GET", "/internal/ping", null).getStatus()).isEqualTo(200);

        MockHttpServletResponse refused = send(filter, "GET", "/internal/ping", "order-service");
        assertThat(refused.getStatus()).isEqualTo(429);
        assertThat(refused.getHeader("Retry-After")).isNotNull();
        assertThat(send(filter, "GET", "/public/items/8", null).getStatus()).isEqualTo(200);
    }

    /** A request from 127.0.0.1, as {@code subject}'s (a verified token's subject) or anonymous (null). */
    private static MockHttpServletResponse send(RateLimitFilter filter, String method, String path, String subject)
            throws Exception {
        SecurityContextHolder.clearContext();
        if (subject != null) {
            Jwt jwt = Jwt.withTokenValue("t")
                    .header("alg", "none")
                    .subject(subject)
                    .build();
            SecurityContextHolder.getContext().setAuthentication(new JwtAuthenticationToken(jwt));
        }
        var request = new MockHttpServletRequest(method, path);
        request.setServletPath(path);
        request.setRemoteAddr("127.0.0.1");
        var response = new MockHttpServletResponse();
        filter.doFilter(request, response, new MockFilterChain());
        return response;
    }

    @Test
    void anIpv6AddressCountsAsItsSlash64() {
        assertThat(AddressKeys.of("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(AddressKeys.of("2001:db8:1:2::1")).isEqualTo(AddressKeys.of("2001:0db8:0001:0002:ffff::9"));
        assertThat(AddressKeys.of("[2001:db8:1:2::1]")).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(AddressKeys.of("fe80::1%eth0")).isEqualTo("fe80:0:0:0:0:0:0:0/64");
        assertThat(AddressKeys.of("2001:db8:1:3::1")).isNotEqualTo(AddressKeys.of("2001:db8:1:2::1"));
    }

    @Test
    void anIpv4AddressCountsAsItselfAlsoWhenMappedIntoIpv6() {
        assertThat(AddressKeys.of("203.0.113.7")).isEqualTo("203.0.113.7");
        assertThat(AddressKeys.of("::ffff:203.0.113.7")).isEqualTo("203.0.113.7");
        assertThat(AddressKeys.of("203.0.113.8")).isNotEqualTo("203.0.113.7");
    }

    @Test
    void whatIsNoAddressIsKeptAsItIs() {
        assertThat(AddressKeys.of(null)).isNull();
        assertThat(AddressKeys.of("not:an:address:zz")).isEqualTo("not:an:address:zz");
    }

    @Test
    void addressesOfOneSlash64ShareALimitAndOtherNetworksDoNot() throws Exception {
        var filter = new RateLimitFilter(
                Per.ADDRESS,
                List.of(new RateRule(
                        "sign-in", Per.ADDRESS, List.of("POST"), List.of("/login"), 2, Duration.ofMinutes(1))),
                new SimpleMeterRegistry());

        assertThat(signIn(filter, "2001:db8:1:2::1")).isEqualTo(200);
        assertThat(signIn(filter, "2001:db8:1:2::2")).isEqualTo(200);
        assertThat(signIn(filter, "2001:db8:1:2:ffff:ffff:ffff:ffff"))
                .as("a third address of the same /64")
                .isEqualTo(429);
        assertThat(signIn(filter, "2001:db8:1:3::1")).as("another /64").isEqualTo(200);
        assertThat(signIn(filter, "203.0.113.7")).isEqualTo(200);
    }

    private static int signIn(RateLimitFilter filter, String address) throws Exception {
        var request = new MockHttpServletRequest("POST", "/login");
        request.setServletPath("/login");
        request.setRemoteAddr(address);
        var response = new MockHttpServletResponse();
        filter.doFilter(request, response, new MockFilterChain());
        return response.getStatus();
    }
}
