package dev.agora.perf.experiment.partitions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TradersTest {

    /**
     * The two cases of ExchangeLeaderPartitionTest trade on one cluster, one after the other: when the second traded
     * the first's symbols, its cash checks counted money that moved to the first's accounts, and its share checks
     * both runs' shares (CI on f521291: every book's cash off, every symbol holding 400,000 shares).
     */
    @Test
    void runsInOneJvmNeverShareASymbolOrAnAccount() {
        Set<String> symbols = new HashSet<>();
        Set<String> accounts = new HashSet<>();
        for (int run = 0; run < 500; run++) {
            for (Traders.Book book : Traders.newBooks(4)) {
                assertThat(symbols.add(book.symbol()))
                        .as("symbol %s of run %d is new", book.symbol(), run)
                        .isTrue();
                for (String account : book.accounts()) {
                    assertThat(accounts.add(account))
                            .as("account %s of run %d is new", account, run)
                            .isTrue();
                }
                assertThat(book.symbol()).matches("[A-Za-z0-9]{1,32}");
            }
        }
        assertThat(List.copyOf(symbols)).hasSize(2_000);
    }
}
