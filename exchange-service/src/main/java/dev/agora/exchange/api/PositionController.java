package dev.agora.exchange.api;

import dev.agora.exchange.matching.Result;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class PositionController {

    private final ExchangeGateway exchange;

    PositionController(ExchangeGateway exchange) {
        this.exchange = exchange;
    }

    /**
     * Admin only ({@link ExchangeAccessRules}): creates the symbol if needed and adds shares to an account's
     * position, like XML {@code <symbol>}.
     */
    @PostMapping("/api/exchange/symbols/{symbol}/positions")
    @ResponseStatus(HttpStatus.CREATED)
    ApiModels.SharesAdded addShares(
            @PathVariable @Pattern(regexp = ApiModels.SYMBOL) String symbol,
            @Valid @RequestBody ApiModels.AddShares request) {
        Result result = exchange.call(engine -> engine.addShares(symbol, request.accountId(), request.shares()));
        if (result instanceof Result.Rejected rejected) throw ExchangeGateway.problem(rejected);
        return new ApiModels.SharesAdded(symbol, request.accountId(), request.shares());
    }
}
