package dev.agora.frontend.web.trade;

import dev.agora.frontend.web.ApiProblem;
import dev.agora.frontend.web.PublicApi;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpMethod;

/** The desk's reads and writes, each a call to the public API's exchange routes with the person's token. */
final class Desk {

    private final PublicApi api;

    Desk(PublicApi api) {
        this.api = api;
    }

    DeskViews.Mine mine(String bearer) {
        return api.get("/api/exchange/me", bearer, DeskViews.Mine.class);
    }

    /** A symbol's book; one the exchange does not know yet (404) is shown empty: the desk may place its first order. */
    DeskViews.Book book(String symbol, String bearer) {
        try {
            return api.get(PublicApi.path("/api/exchange/symbols/{symbol}/book", symbol), bearer, DeskViews.Book.class);
        } catch (ApiProblem problem) {
            if (problem.status() == 404) return new DeskViews.Book(symbol, List.of(), List.of());
            throw problem;
        }
    }

    /** The remembered orders as they stand now; one that cannot be read (gone, not ours any more) is left out. */
    List<DeskViews.Order> recent(List<RecentOrders.Ref> remembered, String bearer) {
        List<DeskViews.Order> orders = new ArrayList<>();
        for (RecentOrders.Ref ref : remembered) {
            try {
                orders.add(api.get(
                        PublicApi.path("/api/exchange/accounts/{a}/orders/{o}", ref.accountId(), ref.orderId()),
                        bearer,
                        DeskViews.Order.class));
            } catch (ApiProblem problem) {
                if (problem.isUnavailable()) throw problem;
            }
        }
        return orders;
    }

    DeskViews.Desk desk(List<RecentOrders.Ref> remembered, String bearer) {
        return new DeskViews.Desk(mine(bearer), recent(remembered, bearer));
    }

    DeskViews.Order place(String accountId, DeskViews.PlaceOrder order, String bearer) {
        return api.send(
                HttpMethod.POST,
                PublicApi.path("/api/exchange/accounts/{a}/orders", accountId),
                order,
                bearer,
                java.util.Map.of(),
                DeskViews.Order.class);
    }

    DeskViews.Order cancel(String accountId, long orderId, String bearer) {
        return api.send(
                HttpMethod.DELETE,
                PublicApi.path("/api/exchange/accounts/{a}/orders/{o}", accountId, orderId),
                null,
                bearer,
                java.util.Map.of(),
                DeskViews.Order.class);
    }
}
