package dev.agora.frontend.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The push channel over a real TCP connection: only the internal token opens it, only invalidations pass. */
class InvalidationChannelTest {

    private static final String TOKEN = "channel-secret";

    private final BookCache cache = new BookCache(CacheSettings.defaults());
    private final InvalidationChannel channel = open();

    private InvalidationChannel open() {
        try {
            return InvalidationChannel.open(cache, TOKEN::equals, InetAddress.getLoopbackAddress(), 0, 4);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void close() throws IOException {
        channel.close();
    }

    private static CatalogBook book(long id, long version) {
        return new CatalogBook(id, "Title " + id, "topic", new BigDecimal("10.00"), 100 - version, version);
    }

    /** A connection to the channel, as a catalog holds one. */
    private final class Catalog implements AutoCloseable {

        private final Socket socket = new Socket(InetAddress.getLoopbackAddress(), channel.port());
        private final BufferedReader in =
                new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));

        Catalog() throws IOException {
            socket.setSoTimeout(5000);
        }

        String say(String line) throws IOException {
            socket.getOutputStream().write((line + "\n").getBytes(StandardCharsets.US_ASCII));
            return in.readLine();
        }

        boolean closedByFrontend() throws IOException {
            return in.readLine() == null;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void anInvalidationOnAnOpenedChannelIsAppliedBeforeItIsAcknowledged() throws IOException {
        cache.offerLookup(book(1, 3), cache.lookupTicket());
        try (Catalog catalog = new Catalog()) {
            assertThat(catalog.say(InvalidationChannel.GREETING + " " + TOKEN)).isEqualTo("OK");

            assertThat(catalog.say("1 4 0")).isEqualTo("OK");
            assertThat(cache.cachedLookup(1)).isNull();
            assertThat(cache.offerLookup(book(1, 3), cache.lookupTicket())).isFalse();
            assertThat(catalog.say("1 5 0")).isEqualTo("OK");
            assertThat(cache.offerLookup(book(1, 4), cache.lookupTicket())).isFalse();
        }
    }

    @Test
    void aSearchAffectingInvalidationDropsTheCachedSearches() throws IOException {
        cache.offerSearch("topic", List.of(), cache.searchTicket());
        try (Catalog catalog = new Catalog()) {
            catalog.say(InvalidationChannel.GREETING + " " + TOKEN);

            assertThat(catalog.say("2 1 1")).isEqualTo("OK");
        }
        assertThat(cache.cachedSearch("topic")).isNull();
    }

    @Test
    void aWrongOrMissingTokenIsRefusedAndNothingAfterItIsApplied() throws IOException {
        cache.offerLookup(book(1, 3), cache.lookupTicket());
        for (String greeting :
                new String[] {InvalidationChannel.GREETING + " wrong", InvalidationChannel.GREETING, "1 4 0", ""}) {
            try (Catalog catalog = new Catalog()) {
                assertThat(catalog.say(greeting)).startsWith("ERR");
                assertThat(catalog.closedByFrontend()).isTrue();
            }
        }
        assertThat(cache.cachedLookup(1).version()).isEqualTo(3);
    }

    @Test
    void malformedInvalidationsAreRefusedAndChangeNothing() throws IOException {
        cache.offerLookup(book(1, 3), cache.lookupTicket());
        for (String bad : new String[] {
            "1 4",
            "1 4 0 0",
            "1 4 2",
            "x 4 0",
            "1 4.5 0",
            "-1 4 0",
            "1 0 0",
            "1 99999999999999999999 0",
            "",
            "1  4 0",
            "1 4 0".repeat(40)
        }) {
            try (Catalog catalog = new Catalog()) {
                assertThat(catalog.say(InvalidationChannel.GREETING + " " + TOKEN))
                        .isEqualTo("OK");
                assertThat(catalog.say(bad)).as(bad).startsWith("ERR");
                assertThat(catalog.closedByFrontend()).isTrue();
            }
        }
        assertThat(cache.cachedLookup(1).version()).isEqualTo(3);
    }

    @Test
    void anUnknownBookIsHarmless() throws IOException {
        cache.offerLookup(book(1, 3), cache.lookupTicket());
        try (Catalog catalog = new Catalog()) {
            catalog.say(InvalidationChannel.GREETING + " " + TOKEN);

            assertThat(catalog.say("424242 7 0")).isEqualTo("OK");
        }
        assertThat(cache.cachedLookup(1).version()).isEqualTo(3);
    }

    @Test
    void channelsBeyondTheLimitAreRefused() throws IOException {
        Catalog[] held = new Catalog[4];
        for (int i = 0; i < held.length; i++) {
            held[i] = new Catalog();
            assertThat(held[i].say(InvalidationChannel.GREETING + " " + TOKEN)).isEqualTo("OK");
        }
        try (Catalog oneTooMany = new Catalog()) {
            assertThat(oneTooMany.in.readLine()).startsWith("ERR");
        } finally {
            for (Catalog catalog : held) catalog.close();
        }
    }
}
