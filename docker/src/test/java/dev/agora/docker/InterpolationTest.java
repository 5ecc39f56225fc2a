package dev.agora.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterpolationTest {

    private static final Map<String, String> VARIABLES = Map.of("SET", "value", "EMPTY", "");

    @Test
    void substitutesLikeCompose() {
        assertThat(Interpolation.resolve("${SET} $SET x", VARIABLES)).isEqualTo("value value x");
        assertThat(Interpolation.resolve("${UNSET:-fallback}/${EMPTY:-fallback}/${EMPTY-kept}", VARIABLES))
                .isEqualTo("fallback/fallback/");
        assertThat(Interpolation.resolve("$${NOT_A_VARIABLE} $$SET", VARIABLES)).isEqualTo("${NOT_A_VARIABLE} $SET");
        assertThat(Interpolation.resolve("${UNSET}", VARIABLES)).isEmpty();
    }

    @Test
    void aRequiredVariableThatIsMissingStopsWithItsMessage() {
        assertThatThrownBy(() -> Interpolation.resolve("${UNSET:?set it in docker/.env}", VARIABLES))
                .hasMessage("Required variable UNSET is not set: set it in docker/.env");
        assertThatThrownBy(() -> Interpolation.resolve("${EMPTY:?must not be empty}", VARIABLES))
                .hasMessageContaining("EMPTY");
        assertThat(Interpolation.resolve("${EMPTY?only unset fails}", VARIABLES))
                .isEmpty();
    }

    @Test
    void resolvedTreesShareNoNodes() {
        Map<String, Object> shared = new HashMap<>(Map.of("a", "${SET}"));
        Object tree = Map.of("one", shared, "two", shared, "list", List.of("$SET"));

        var copy = ComposeFile.asMap(Interpolation.resolveTree(tree, VARIABLES));
        ComposeFile.asMap(copy.get("one")).put("a", "changed");

        assertThat(ComposeFile.asMap(copy.get("two"))).containsEntry("a", "value");
        assertThat(copy.get("list")).isEqualTo(List.of("value"));
    }
}
