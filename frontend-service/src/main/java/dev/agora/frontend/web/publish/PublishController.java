package dev.agora.frontend.web.publish;

import dev.agora.frontend.web.ApiProblem;
import dev.agora.frontend.web.PublicApi;
import dev.agora.frontend.web.SessionTokens;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Publishers and admins: register a title, change a price, restock, upload a book's file. Each form goes to the
 * public API's admin calls with the person's token (the catalog checks the role again); the upload streams the
 * browser's bytes through to the API's upload, so a large file is never held here.
 */
@Controller
class PublishController {

    private final PublicApi api;
    private final SessionTokens tokens;
    private final FileRelay relay;

    PublishController(PublicApi api, SessionTokens tokens, FileRelay relay) {
        this.api = api;
        this.tokens = tokens;
        this.relay = relay;
    }

    record Registration(String title, String topic, BigDecimal price, long stock) {}

    record NewPrice(BigDecimal price) {}

    record Restock(long quantity) {}

    record Book(long id, String title) {}

    @GetMapping("/publish")
    String page() {
        return "publish/publish";
    }

    @PostMapping("/publish/books")
    String register(
            @RequestParam String title,
            @RequestParam String topic,
            @RequestParam String price,
            @RequestParam String stock,
            HttpSession session,
            RedirectAttributes redirect) {
        return act(redirect, () -> {
            Book book = api.send(
                    HttpMethod.POST,
                    "/api/admin/books",
                    new Registration(title, topic, decimal(price), whole(stock)),
                    tokens.bearer(session),
                    Map.of(),
                    Book.class);
            return "Registered “" + book.title() + "” as book " + book.id() + ".";
        });
    }

    @PostMapping("/publish/price")
    String changePrice(
            @RequestParam String bookId, @RequestParam String price, HttpSession session, RedirectAttributes redirect) {
        return act(redirect, () -> {
            Book book = api.send(
                    HttpMethod.PUT,
                    PublicApi.path("/api/admin/books/{id}/price", whole(bookId)),
                    new NewPrice(decimal(price)),
                    tokens.bearer(session),
                    Map.of(),
                    Book.class);
            return "The price of “" + book.title() + "” is now $"
                    + decimal(price).toPlainString() + ".";
        });
    }

    @PostMapping("/publish/restock")
    String restock(
            @RequestParam String bookId,
            @RequestParam String quantity,
            HttpSession session,
            RedirectAttributes redirect) {
        return act(redirect, () -> {
            Book book = api.send(
                    HttpMethod.POST,
                    PublicApi.path("/api/admin/books/{id}/restock", whole(bookId)),
                    new Restock(whole(quantity)),
                    tokens.bearer(session),
                    Map.of(),
                    Book.class);
            return "Added " + whole(quantity) + " copies of “" + book.title() + "”.";
        });
    }

    /** The upload page's script sends the file here (with the CSRF header); its bytes go on to the API as they come. */
    @PutMapping("/publish/books/{id}/files/{name}")
    void upload(
            @PathVariable long id,
            @PathVariable String name,
            HttpServletRequest request,
            HttpServletResponse response,
            HttpSession session)
            throws IOException {
        relay.upload(id, request, response, tokens.bearer(session));
    }

    private interface Action {
        String run();
    }

    private static String act(RedirectAttributes redirect, Action action) {
        try {
            redirect.addFlashAttribute("done", action.run());
        } catch (ApiProblem problem) {
            if (problem.isUnavailable()) throw problem;
            redirect.addFlashAttribute("failed", problem.detail());
        } catch (IllegalArgumentException badNumber) {
            redirect.addFlashAttribute("failed", badNumber.getMessage());
        }
        return "redirect:/publish";
    }

    private static BigDecimal decimal(String text) {
        try {
            return new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("“" + text + "” is not a price: write it like 12.50.");
        }
    }

    private static long whole(String text) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("“" + text + "” is not a whole number.");
        }
    }
}
