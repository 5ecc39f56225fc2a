package dev.agora.frontend.web.trade;

import dev.agora.frontend.web.ApiProblem;
import dev.agora.frontend.web.SessionTokens;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.math.BigDecimal;
import java.util.regex.Pattern;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The trading desk: the person's accounts (cash, positions), a symbol's book, placing and cancelling limit orders,
 * and their open and recent orders with executions. The page works without script (forms, reload); with it, a live
 * stream ({@link DeskStreams}) redraws the book and the orders as they change.
 */
@Controller
class DeskController {

    private static final Pattern SYMBOL = Pattern.compile("[A-Za-z0-9]{1,32}");
    private static final Pattern ACCOUNT = Pattern.compile("[0-9]{1,100}");

    private final Desk desk;
    private final SessionTokens tokens;
    private final DeskStreams streams;

    DeskController(Desk desk, SessionTokens tokens, DeskStreams streams) {
        this.desk = desk;
        this.tokens = tokens;
        this.streams = streams;
    }

    @GetMapping("/trade")
    String desk(
            @RequestParam(required = false) String symbol,
            HttpSession session,
            HttpServletRequest request,
            Model model) {
        String bearer = tokens.bearer(session);
        String shown = symbol(symbol);
        model.addAttribute("symbol", shown);
        model.addAttribute("desk", desk.desk(RecentOrders.of(session), bearer));
        model.addAttribute("book", shown == null ? null : desk.book(shown, bearer));
        CsrfToken csrf = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
        model.addAttribute("csrfName", csrf.getParameterName());
        model.addAttribute("csrfToken", csrf.getToken());
        return "trade/desk";
    }

    @PostMapping("/trade/orders")
    String place(
            @RequestParam String accountId,
            @RequestParam String symbol,
            @RequestParam String side,
            @RequestParam String shares,
            @RequestParam String limit,
            HttpSession session,
            RedirectAttributes redirect) {
        String shown = symbol(symbol);
        redirect.addAttribute("symbol", shown != null ? shown : "");
        try {
            if (shown == null) throw new IllegalArgumentException("A symbol is 1 to 32 letters or digits.");
            if (!ACCOUNT.matcher(accountId).matches()) throw new IllegalArgumentException("Choose an account.");
            BigDecimal amount = positive(shares, "shares");
            BigDecimal price = positive(limit, "limit price");
            DeskViews.Order placed = desk.place(
                    accountId,
                    new DeskViews.PlaceOrder(shown, "sell".equals(side) ? amount.negate() : amount, price),
                    tokens.bearer(session));
            RecentOrders.add(session, accountId, placed.id());
            redirect.addFlashAttribute(
                    "done",
                    "Order " + placed.id() + " placed: " + placed.side().toLowerCase() + " " + amount.toPlainString()
                            + " " + shown + " at " + price.toPlainString() + " ("
                            + placed.state().toLowerCase() + ").");
        } catch (ApiProblem problem) {
            if (problem.isUnavailable()) throw problem;
            redirect.addFlashAttribute("failed", problem.detail());
        } catch (IllegalArgumentException bad) {
            redirect.addFlashAttribute("failed", bad.getMessage());
        }
        return "redirect:/trade";
    }

    @PostMapping("/trade/orders/{accountId}/{orderId}/cancel")
    String cancel(
            @PathVariable String accountId,
            @PathVariable long orderId,
            @RequestParam(required = false) String symbol,
            HttpSession session,
            RedirectAttributes redirect) {
        String shown = symbol(symbol);
        if (shown != null) redirect.addAttribute("symbol", shown);
        try {
            DeskViews.Order canceled = desk.cancel(accountId, orderId, tokens.bearer(session));
            RecentOrders.add(session, accountId, orderId);
            redirect.addFlashAttribute("done", "Order " + canceled.id() + " canceled.");
        } catch (ApiProblem problem) {
            if (problem.isUnavailable()) throw problem;
            redirect.addFlashAttribute("failed", problem.detail());
        }
        return "redirect:/trade";
    }

    /** Server-Sent Events: {@code book} and {@code mine}, each a piece of the page, sent when it changed. */
    @GetMapping(path = "/trade/events", produces = "text/event-stream")
    SseEmitter events(@RequestParam(required = false) String symbol, HttpSession session, HttpServletRequest request) {
        CsrfToken csrf = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
        return streams.open(
                symbol(symbol),
                session,
                SecurityContextHolder.getContext().getAuthentication(),
                csrf.getParameterName(),
                csrf.getToken());
    }

    private static String symbol(String symbol) {
        if (symbol == null || symbol.isBlank()) return null;
        String stripped = symbol.strip().toUpperCase(java.util.Locale.ROOT);
        return SYMBOL.matcher(stripped).matches() ? stripped : null;
    }

    private static BigDecimal positive(String text, String what) {
        try {
            BigDecimal value = new BigDecimal(text.strip());
            if (value.signum() <= 0) throw new NumberFormatException();
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The " + what + " must be a number above zero.");
        }
    }
}
