package dev.agora.exchange.api;

import dev.agora.common.problem.ProblemException;
import dev.agora.common.problem.ProblemTypes;
import dev.agora.common.security.Callers;
import dev.agora.common.security.Roles;
import dev.agora.exchange.ExchangeProperties;
import dev.agora.exchange.history.OrderHistory;
import dev.agora.exchange.matching.Rejection;
import dev.agora.exchange.matching.Result;
import dev.agora.exchange.sequencer.Command;
import dev.agora.exchange.sequencer.ExchangeUnavailableException;
import dev.agora.exchange.sequencer.Sequencer;
import java.net.URI;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/** Runs a command through the sequencer for a web request and turns rejections into problem+json. */
@Component
class ExchangeGateway {

    /** What a command answers, applying nothing, when the caller may not act on the account. */
    private static final Object NOT_YOURS = new Object();

    private final Sequencer sequencer;
    private final OrderHistory history;
    private final long replyTimeoutMillis;

    ExchangeGateway(Sequencer sequencer, OrderHistory history, ExchangeProperties properties) {
        this.sequencer = sequencer;
        this.history = history;
        this.replyTimeoutMillis = properties.replyTimeout().toMillis();
    }

    <R> R call(Command<R> command) {
        return await(sequencer.submit(command));
    }

    /**
     * The answer as a client sees it: an order the engine no longer holds, or executions it did not keep, are read
     * from PostgreSQL (after the commit that the engine's answer waited for, so nothing it saw is missing).
     */
    Result completed(Result result) {
        return await(history.complete(result));
    }

    private <R> R await(CompletableFuture<R> reply) {
        try {
            return reply.get(replyTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            reply.cancel(false);
            throw ProblemException.unavailable(
                    "The exchange did not answer in time; the request may not have been applied");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ExchangeUnavailableException unavailable) {
                // A refusal that applied nothing is told apart: the frontend sends it again to the instance that
                // serves now, even a request that is not idempotent.
                throw unavailable.refusedBeforeApplying()
                        ? ProblemException.notApplied("The " + unavailable.getMessage() + "; nothing was applied")
                        : ProblemException.unavailable("The " + unavailable.getMessage());
            }
            throw new IllegalStateException("Exchange command failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ProblemException.unavailable("The exchange is shutting down");
        }
    }

    /**
     * Runs a command on an account for a caller who may act on it: an admin, or the user the account belongs to.
     * The owner is read on the sequencer thread in the same step as the command, so nothing can come between the
     * check and the effect; owners never change, and the check is one map lookup the command makes anyway. Anyone
     * else gets 403 with nothing applied, and so does a non-admin naming an account that does not exist: whether
     * an account exists is not told to those who may not see it.
     */
    @SuppressWarnings("unchecked")
    <R> R callOnAccount(String accountId, Command<R> command) {
        if (Callers.hasRole(Roles.ADMIN)) return call(command);
        String caller = Callers.subject().orElseThrow(() -> notYours(accountId));
        Object result = call(engine -> engine.account(accountId)
                        .filter(account -> account.isOwnedBy(caller))
                        .isPresent()
                ? command.applyTo(engine)
                : NOT_YOURS);
        if (result == NOT_YOURS) throw notYours(accountId);
        return (R) result;
    }

    private static ProblemException notYours(String accountId) {
        return new ProblemException(
                HttpStatus.FORBIDDEN,
                ProblemTypes.FORBIDDEN,
                "Only the owner of account " + accountId + " or an admin may use it");
    }

    /** The problem for a rejection: a stable type per reason, and the reason's numeric code. */
    static ProblemException problem(Result.Rejected rejected) {
        Rejection reason = rejected.reason();
        HttpStatus status =
                switch (reason) {
                    case INVALID_ACCOUNT_ID,
                            INVALID_BALANCE,
                            INVALID_SYMBOL,
                            INVALID_SHARES,
                            INVALID_AMOUNT,
                            INVALID_LIMIT -> HttpStatus.BAD_REQUEST;
                    case UNKNOWN_ACCOUNT, UNKNOWN_ORDER -> HttpStatus.NOT_FOUND;
                    case FOREIGN_ORDER, ACCOUNT_NOT_PERMITTED, CREATE_NOT_PERMITTED -> HttpStatus.FORBIDDEN;
                    case TOO_MANY_EXECUTIONS -> HttpStatus.UNPROCESSABLE_CONTENT;
                    case ACCOUNT_EXISTS, INSUFFICIENT_FUNDS, INSUFFICIENT_SHARES, NOTHING_OPEN -> HttpStatus.CONFLICT;
                };
        ProblemException problem = new ProblemException(status, type(reason), capitalized(reason.message()));
        problem.getBody().setProperty("code", reason.code());
        return problem;
    }

    static URI type(Rejection reason) {
        return URI.create("https://agora.dev/problems/exchange/"
                + reason.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    private static String capitalized(String message) {
        return Character.toUpperCase(message.charAt(0)) + message.substring(1);
    }
}
