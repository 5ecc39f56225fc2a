package dev.agora.exchange.desk;

import dev.agora.common.api.Access;
import dev.agora.common.problem.ProblemException;
import dev.agora.common.security.Callers;
import dev.agora.common.security.Roles;
import dev.agora.exchange.ExchangeProperties;
import dev.agora.exchange.sequencer.Command;
import dev.agora.exchange.sequencer.ExchangeUnavailableException;
import dev.agora.exchange.sequencer.Sequencer;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * What a trading desk reads (the frontend's desk page and its live stream): the caller's own accounts with their open
 * orders, and a symbol's order book as price levels. Reads only, each one sequencer command; who may call them:
 * {@link DeskAccessRules}.
 */
@RestController
@Tag(name = "exchange")
class DeskController {

    static final URI UNKNOWN_SYMBOL = URI.create("https://agora.dev/problems/exchange/unknown-symbol");

    private final Sequencer sequencer;
    private final long replyTimeoutMillis;

    DeskController(Sequencer sequencer, ExchangeProperties properties) {
        this.sequencer = sequencer;
        this.replyTimeoutMillis = properties.replyTimeout().toMillis();
    }

    /** The caller's accounts (those whose owner is the token's subject) and their open orders, newest first. */
    @GetMapping("/api/exchange/me")
    @Access(
            value = {Roles.TRADER, Roles.ADMIN},
            note = "the caller's own accounts")
    @Operation(
            operationId = "myAccounts",
            summary = "The caller's accounts and their open orders",
            responses = @ApiResponse(responseCode = "200", description = "The caller's accounts"))
    DeskViews.Mine mine() {
        String user = Callers.subject().orElseThrow(() -> new IllegalStateException("No caller"));
        return await(engine -> DeskReads.mine(engine, user));
    }

    /**
     * A symbol's open orders as price levels, both sides, best first (empty sides when nothing is open); a symbol
     * the exchange does not know (nobody holds it, no order for it is open) is 404 {@code unknown-symbol}.
     */
    @GetMapping("/api/exchange/symbols/{symbol}/book")
    @Access({Roles.TRADER, Roles.ADMIN})
    @Operation(
            operationId = "orderBook",
            summary = "A symbol's open orders as price levels, best first",
            responses = {
                @ApiResponse(responseCode = "200", description = "The book"),
                @ApiResponse(responseCode = "404", description = "No such symbol")
            })
    DeskViews.Book book(
            @PathVariable @Pattern(regexp = "[A-Za-z0-9]{1,32}") String symbol,
            @RequestParam(defaultValue = "20") @Positive @Max(200) int depth) {
        return await(engine -> DeskReads.book(engine, symbol, depth))
                .orElseThrow(() -> new ProblemException(
                        HttpStatus.NOT_FOUND,
                        UNKNOWN_SYMBOL,
                        "No symbol " + symbol + " at this exchange: nobody holds shares of it and no order for it is"
                                + " open"));
    }

    private <R> R await(Command<R> command) {
        CompletableFuture<R> reply = sequencer.submit(command);
        try {
            return reply.get(replyTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            reply.cancel(false);
            throw ProblemException.unavailable("The exchange did not answer in time");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ExchangeUnavailableException unavailable) {
                throw ProblemException.unavailable("The " + unavailable.getMessage());
            }
            throw new IllegalStateException("Exchange read failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ProblemException.unavailable("The exchange is shutting down");
        }
    }
}
