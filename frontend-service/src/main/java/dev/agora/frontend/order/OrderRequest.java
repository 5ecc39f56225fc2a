package dev.agora.frontend.order;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

/** A buy: {@value #MAX_QUANTITY} copies at most in one order. */
record OrderRequest(
        @NotNull @Positive Long bookId, @NotNull @Positive @Max(OrderRequest.MAX_QUANTITY) Integer quantity) {

    static final int MAX_QUANTITY = 1000;
}
