package dev.agora.exchange.api;

import dev.agora.common.api.Access;
import dev.agora.common.problem.ProblemException;
import dev.agora.common.security.Roles;
import dev.agora.exchange.matching.Account;
import dev.agora.exchange.matching.Result;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import java.util.TreeMap;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/exchange/accounts")
@Tag(name = "exchange", description = "Accounts, positions, orders and order books of the stock exchange")
class AccountController {

    private final ExchangeGateway exchange;

    AccountController(ExchangeGateway exchange) {
        this.exchange = exchange;
    }

    /** Admin only ({@link ExchangeAccessRules}): opens an account for the user named as its owner. */
    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @Access(Roles.ADMIN)
    @Operation(
            operationId = "createAccount",
            summary = "Open an account for the user named as its owner",
            responses = {
                @ApiResponse(responseCode = "201", description = "Opened"),
                @ApiResponse(responseCode = "400", description = "Bad input"),
                @ApiResponse(responseCode = "409", description = "The account exists")
            })
    ApiModels.AccountCreated create(@Valid @RequestBody ApiModels.CreateAccount request) {
        Result result = exchange.call(engine -> engine.createAccount(request.id(), request.balance(), request.owner()));
        if (result instanceof Result.Rejected rejected) throw ExchangeGateway.problem(rejected);
        return new ApiModels.AccountCreated(request.id(), request.balance(), request.owner());
    }

    /** The account's owner or an admin. */
    @GetMapping("/{accountId}")
    @Access(
            value = {Roles.TRADER, Roles.ADMIN},
            note = "a trader reads the accounts they own")
    @Operation(
            operationId = "getAccount",
            summary = "An account: its cash and positions",
            responses = {
                @ApiResponse(responseCode = "200", description = "The account"),
                @ApiResponse(responseCode = "403", description = "Someone else's account"),
                @ApiResponse(responseCode = "404", description = "No such account")
            })
    ApiModels.AccountView get(@PathVariable @Pattern(regexp = ApiModels.ACCOUNT_ID) String accountId) {
        ApiModels.AccountView view = exchange.callOnAccount(
                accountId,
                engine -> engine.account(accountId).map(AccountController::view).orElse(null));
        if (view == null) throw ProblemException.notFound("Account " + accountId + " does not exist");
        return view;
    }

    private static ApiModels.AccountView view(Account account) {
        return new ApiModels.AccountView(
                account.id(), account.owner(), account.balance(), new TreeMap<>(account.positions()));
    }
}
