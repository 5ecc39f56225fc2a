package dev.agora.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestIdsTest {

    @Test
    void newIdsAreRandomVersion4UuidsThatDoNotRepeat() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = RequestIds.newId();
            UUID parsed = UUID.fromString(id);
            assertThat(parsed.version()).isEqualTo(4);
            assertThat(parsed.variant()).isEqualTo(2);
            assertThat(id).isEqualTo(parsed.toString());
            assertThat(seen.add(id)).as("id %s repeated", id).isTrue();
        }
    }
}
