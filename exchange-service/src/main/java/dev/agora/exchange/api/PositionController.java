package dev.agora.exchange.api;

import dev.agora.common.api.Access;
import dev.agora.common.security.Roles;
import dev.agora.exchange.matching.Result;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "exchange")
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
    @Access(Roles.ADMIN)
    @Operation(
            operationId = "addShares",
            summary = "Grant shares of a symbol to an account (the symbol is created if needed)",
            responses = {
                @ApiResponse(responseCode = "201", description = "Granted"),
                @ApiResponse(responseCode = "400", description = "Bad input"),
                @ApiResponse(responseCode = "404", description = "No such account")
            })
    ApiModels.SharesAdded addShares(
            @PathVariable @Pattern(regexp = ApiModels.SYMBOL) String symbol,
            @Valid @RequestBody ApiModels.AddShares request) {
        Result result = exchange.call(engine -> engine.addShares(symbol, request.accountId(), request.shares()));
        if (result instanceof Result.Rejected rejected) throw ExchangeGateway.problem(rejected);
        return new ApiModels.SharesAdded(symbol, request.accountId(), request.shares());
    }
}
