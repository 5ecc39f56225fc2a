package dev.agora.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agora.catalog.FakeFrontend.Received;
import dev.agora.catalog.FakeFrontend.Via;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A frontend that names a push channel on its HTTP answers gets its later pushes over that channel, each
 * acknowledged before the write returns; a channel that breaks costs nothing but the way: the push goes over
 * HTTP within the same write.
 */
class PushChannelTest extends CatalogTestSupport {

    @AfterEach
    void repair() {
        CHANNEL_FRONTEND.repairChannels();
    }

    /** Restocks the book until a push of it came over the channel (the first ones teach the catalog the port). */
    private long restockUntilPushedOverTheChannel(long id) {
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Response restocked = post("/admin/books/" + id + "/restock", "{\"quantity\":1}", AUTHORIZATION, admin());
            long version = restocked.json().path("version").asLong();
            return lastPushOf(id, version).via() == Via.CHANNEL;
        });
        return book(id).path("version").asLong();
    }

    private static Received lastPushOf(long id, long version) {
        return CHANNEL_FRONTEND.receivedFor(id).stream()
                .filter(r -> r.body().path("version").asLong() == version)
                .reduce((first, second) -> second)
                .orElseThrow(() -> new AssertionError("version " + version + " of book " + id + " was not pushed"));
    }

    @Test
    void onceTheChannelIsOpenEveryWriteIsPushedOverItWithTheTokenBeforeItReturns() {
        long id = newBook("channel", 100).path("id").asLong();
        restockUntilPushedOverTheChannel(id);

        for (int i = 0; i < 20; i++) {
            Response reserved = reserve(nextOrderId(), id, 1);
            long version = book(id).path("version").asLong();

            assertThat(reserved.json().path("outcome").asString()).isEqualTo("RESERVED");
            Received push = lastPushOf(id, version);
            assertThat(push.via()).isEqualTo(Via.CHANNEL);
            assertThat(push.caller()).isEqualTo(CATALOG_CLIENT);
            assertThat(push.body().path("searchAffected").asBoolean()).isFalse();
        }
    }

    @Test
    void aBrokenChannelFallsBackToHttpBeforeTheWriteReturnsAndIsReopenedLater() {
        long id = newBook("channel", 100).path("id").asLong();
        restockUntilPushedOverTheChannel(id);

        CHANNEL_FRONTEND.breakChannels();
        for (int i = 0; i < 5; i++) {
            Response restocked = post("/admin/books/" + id + "/restock", "{\"quantity\":1}", AUTHORIZATION, admin());

            assertThat(restocked.status()).isEqualTo(200);
            assertThat(lastPushOf(id, restocked.json().path("version").asLong()).via())
                    .isEqualTo(Via.HTTP);
        }
        CHANNEL_FRONTEND.repairChannels();

        restockUntilPushedOverTheChannel(id);
    }

    @Test
    void aNewTitleIsPushedOverTheChannelAsSearchAffecting() {
        restockUntilPushedOverTheChannel(newBook("channel", 100).path("id").asLong());

        long id = newBook("channel", 100).path("id").asLong();

        Received push = lastPushOf(id, 1);
        assertThat(push.via()).isEqualTo(Via.CHANNEL);
        assertThat(push.body().path("searchAffected").asBoolean()).isTrue();
    }
}
