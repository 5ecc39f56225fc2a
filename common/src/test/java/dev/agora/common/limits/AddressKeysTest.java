package dev.agora.common.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agora.common.limits.LimitsProperties.Per;
import dev.agora.common.limits.LimitsProperties.RateRule;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** IPv6 callers are counted by their /64, IPv4 callers by their address. */
class AddressKeysTest {

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
