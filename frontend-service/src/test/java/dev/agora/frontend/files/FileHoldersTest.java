package dev.agora.frontend.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class FileHoldersTest {

    private static final URI A = URI.create("http://127.0.0.1:8180");
    private static final URI B = URI.create("http://127.0.0.1:8181");
    private static final URI C = URI.create("http://127.0.0.1:8182");
    private static final List<URI> IN_TURN = List.of(A, B, C);
    private static final String PATH = "/books/1/files/book.pdf";
    private static final UnaryOperator<List<URI>> AS_NAMED = holders -> holders;

    private final FileHolders holders = new FileHolders(100);

    @Test
    void aNameNeverRedirectedIsAskedOfTheNodesInTurn() {
        assertThat(holders.candidates(PATH, IN_TURN, AS_NAMED)).isEqualTo(IN_TURN);
    }

    @Test
    void afterARedirectTheHoldersItNamedAreAskedFirstTakingTurnsThenTheOthers() {
        holders.redirected(PATH, List.of(B, C));

        List<URI> first = holders.candidates(PATH, IN_TURN, AS_NAMED);
        List<URI> second = holders.candidates(PATH, IN_TURN, AS_NAMED);

        assertThat(first).containsExactly(B, C, A);
        assertThat(second).containsExactly(C, B, A);
        assertThat(holders.candidates("/books/1/files/other.pdf", IN_TURN, AS_NAMED))
                .isEqualTo(IN_TURN);
    }

    @Test
    void holdersFoundUnhealthyComeAfterTheHealthyOnes() {
        holders.redirected(PATH, List.of(B, C));
        UnaryOperator<List<URI>> bIsDown = named -> {
            List<URI> ordered = new ArrayList<>(named);
            if (ordered.remove(B)) ordered.add(B);
            return ordered;
        };

        for (int i = 0; i < 4; i++) {
            assertThat(holders.candidates(PATH, IN_TURN, bIsDown)).containsExactly(C, B, A);
        }
    }

    @Test
    void aLaterRedirectReplacesTheHoldersAndANotFoundForgetsThem() {
        holders.redirected(PATH, List.of(B));
        holders.redirected(PATH, List.of(C));
        assertThat(holders.candidates(PATH, IN_TURN, AS_NAMED)).containsExactly(C, A, B);

        holders.gone(PATH);
        assertThat(holders.candidates(PATH, IN_TURN, AS_NAMED)).isEqualTo(IN_TURN);
    }

    @Test
    void aRedirectNamingNobodyLeavesWhatWasKnown() {
        holders.redirected(PATH, List.of(B));
        holders.redirected(PATH, List.of());

        assertThat(holders.candidates(PATH, IN_TURN, AS_NAMED)).containsExactly(B, A, C);
    }
}
