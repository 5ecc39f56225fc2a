package dev.agora.catalog.book;

import dev.agora.common.api.Access;
import dev.agora.common.security.Roles;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Changes of the catalog by publishers and admins ({@code /admin/**}: see {@code CatalogAccessRules}). */
@RestController
@RequestMapping("/admin/books")
@Tag(name = "publishing", description = "Titles, prices and stock (the frontend's /api/admin/books)")
class AdminBookController {

    /** Largest number of copies one restock or registration may add; keeps sums far from overflow. */
    static final long MAX_COPIES = 1_000_000;

    private final ManagingBooks managing;

    AdminBookController(ManagingBooks managing) {
        this.managing = managing;
    }

    record RegisterBook(
            @NotBlank @Size(max = 200) String title,
            @NotBlank @Size(max = 100) String topic,
            @NotNull @DecimalMin("0.01") @Digits(integer = 8, fraction = 2) BigDecimal price,
            @NotNull @Min(0) @Max(MAX_COPIES) Long stock) {}

    record ChangePrice(@NotNull @DecimalMin("0.01") @Digits(integer = 8, fraction = 2) BigDecimal price) {}

    record Restock(@NotNull @Min(1) @Max(MAX_COPIES) Long quantity) {}

    @PostMapping
    @Access({Roles.PUBLISHER, Roles.ADMIN})
    @Operation(
            operationId = "registerBook",
            summary = "Register a title",
            responses = {
                @ApiResponse(responseCode = "201", description = "Registered"),
                @ApiResponse(responseCode = "400", description = "Bad input")
            })
    ResponseEntity<BookView> register(@Valid @RequestBody RegisterBook request) {
        BookView book =
                managing.register(request.title().strip(), request.topic().strip(), request.price(), request.stock());
        return ResponseEntity.created(URI.create("/books/" + book.id())).body(book);
    }

    @PutMapping("/{id}/price")
    @Access({Roles.PUBLISHER, Roles.ADMIN})
    @Operation(
            operationId = "changePrice",
            summary = "Change a book's price",
            responses = {
                @ApiResponse(responseCode = "200", description = "The book at its new price"),
                @ApiResponse(responseCode = "400", description = "Bad input"),
                @ApiResponse(responseCode = "404", description = "No such book")
            })
    BookView changePrice(@PathVariable @Positive long id, @Valid @RequestBody ChangePrice request) {
        return managing.changePrice(id, request.price()).orElseThrow(() -> BookController.unknownBook(id));
    }

    @PostMapping("/{id}/restock")
    @Access({Roles.PUBLISHER, Roles.ADMIN})
    @Operation(
            operationId = "restock",
            summary = "Add copies to a book's stock",
            responses = {
                @ApiResponse(responseCode = "200", description = "The book with its new stock"),
                @ApiResponse(responseCode = "400", description = "Bad input"),
                @ApiResponse(responseCode = "404", description = "No such book")
            })
    BookView restock(@PathVariable @Positive long id, @Valid @RequestBody Restock request) {
        return managing.restock(id, request.quantity()).orElseThrow(() -> BookController.unknownBook(id));
    }
}
