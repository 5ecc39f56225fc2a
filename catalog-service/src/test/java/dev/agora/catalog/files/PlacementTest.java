package dev.agora.catalog.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementTest {

    private static final List<String> FOUR = List.of("http://a:1", "http://b:1", "http://c:1", "http://d:1");

    @Test
    void everyNodeIsNamedOnceInAnOrderThatDependsOnlyOnTheHash() {
        Placement placement = new Placement(FOUR);
        for (int i = 0; i < 100; i++) {
            List<String> order = placement.preference(hash(i));
            assertThat(order).containsExactlyInAnyOrderElementsOf(FOUR);
            assertThat(new Placement(List.of(FOUR.get(3), FOUR.get(1), FOUR.get(0), FOUR.get(2))).preference(hash(i)))
                    .isEqualTo(order);
        }
    }

    @Test
    void filesSpreadEvenlyOverTheNodes() {
        Placement placement = new Placement(FOUR);
        Map<String, Integer> firsts = new HashMap<>();
        Map<String, Integer> holders = new HashMap<>();
        int files = 20_000;
        for (int i = 0; i < files; i++) {
            List<String> order = placement.preference(hash(i));
            firsts.merge(order.get(0), 1, Integer::sum);
            for (String node : order.subList(0, 2)) holders.merge(node, 1, Integer::sum);
        }
        // Each node is first for about a quarter of the files and holds about half of them.
        assertThat(firsts.values())
                .allSatisfy(n -> assertThat(n).isBetween(files / 4 * 80 / 100, files / 4 * 120 / 100));
        assertThat(holders.values())
                .allSatisfy(n -> assertThat(n).isBetween(files / 2 * 85 / 100, files / 2 * 115 / 100));
    }

    @Test
    void losingANodeMovesOnlyTheFilesItHeld() {
        Placement before = new Placement(FOUR);
        Placement after = new Placement(FOUR.subList(0, 3));
        String lost = FOUR.get(3);
        int moved = 0;
        for (int i = 0; i < 10_000; i++) {
            List<String> was = before.preference(hash(i)).subList(0, 2);
            List<String> now = after.preference(hash(i)).subList(0, 2);
            if (!was.contains(lost)) assertThat(now).isEqualTo(was);
            else {
                moved++;
                // The surviving holder keeps its copy; the lost node's next in line takes the other.
                assertThat(now)
                        .containsAll(was.stream().filter(n -> !n.equals(lost)).toList());
            }
        }
        assertThat(moved).isBetween(4_000, 6_000);
    }

    @Test
    void oneNodeHoldsEverything() {
        assertThat(new Placement(List.of("http://only:1")).preference(hash(1))).containsExactly("http://only:1");
    }

    static String hash(int i) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(Integer.toString(i).getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
