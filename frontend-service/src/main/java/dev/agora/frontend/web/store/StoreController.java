package dev.agora.frontend.web.store;

import dev.agora.frontend.book.CatalogBook;
import dev.agora.frontend.book.FindingBooks;
import dev.agora.frontend.files.FileView;
import dev.agora.frontend.files.ListingFiles;
import dev.agora.frontend.web.ApiProblem;
import dev.agora.frontend.web.Person;
import dev.agora.frontend.web.PublicApi;
import dev.agora.frontend.web.SessionTokens;
import dev.agora.frontend.web.WebSettings;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The store: search, a book's page, buying it, and one's orders. What anyone may see (books, their files) is read
 * in process through the frontend's own cached use cases, the ones the JSON API answers from; what is a person's own
 * (buying, their orders) goes through the public API with the person's token, so it passes the same checks as any
 * client's call. A buy carries an idempotency key made when the book page was drawn, so a double click, or the
 * form sent again from the back button, buys once.
 */
@Controller
class StoreController {

    private static final int MAX_QUANTITY = 1000;

    private final FindingBooks finding;
    private final ListingFiles files;
    private final PublicApi api;
    private final SessionTokens tokens;
    private final WebSettings settings;

    StoreController(
            FindingBooks finding, ListingFiles files, PublicApi api, SessionTokens tokens, WebSettings settings) {
        this.finding = finding;
        this.files = files;
        this.api = api;
        this.tokens = tokens;
        this.settings = settings;
    }

    /** Search by topic, and by words of the title (within the topic, or within every topic offered). */
    @GetMapping("/")
    String home(
            @RequestParam(required = false) String topic, @RequestParam(required = false) String title, Model model) {
        String wantedTopic = trimmed(topic, 100);
        String wantedTitle = trimmed(title, 200);
        model.addAttribute("topics", settings.topics());
        model.addAttribute("topic", wantedTopic);
        model.addAttribute("title", wantedTitle);
        if (wantedTopic == null && wantedTitle == null) return "store/home";
        List<String> searched = wantedTopic != null ? List.of(wantedTopic) : settings.topics();
        Map<Long, SearchHit> hits = new LinkedHashMap<>();
        for (String each : searched) {
            try {
                for (var book : finding.search(each).hits()) {
                    if (wantedTitle == null || containsWords(book.title(), wantedTitle)) {
                        hits.putIfAbsent(book.id(), new SearchHit(book.id(), book.title(), each));
                    }
                }
            } catch (RuntimeException unavailable) {
                throw ApiProblem.from(unavailable);
            }
        }
        model.addAttribute("hits", new ArrayList<>(hits.values()));
        return "store/home";
    }

    record SearchHit(long id, String title, String topic) {}

    @GetMapping("/books/{id}")
    String book(@PathVariable long id, Model model, HttpServletResponse response) {
        CatalogBook book = lookup(id);
        if (book == null) return unknownBook(id, model, response);
        model.addAttribute("book", book);
        model.addAttribute("files", filesOf(id, model));
        // A new key each time the page is drawn for a customer, who gets the buy form: one intent to buy, however
        // often its form is sent. Nobody else gets the form, and nobody else pays for a random UUID.
        if (model.getAttribute("person") instanceof Person person && person.customer()) {
            model.addAttribute("idempotencyKey", UUID.randomUUID().toString());
        }
        return "store/book";
    }

    /**
     * The book's files, read in process (public data, the same use case and cache the JSON API answers from); when
     * no catalog can list them the page still shows the book, and says the files cannot be listed now.
     */
    private List<StoreViews.FileItem> filesOf(long id, Model model) {
        try {
            return files.ofBook(id).stream().map(StoreController::item).toList();
        } catch (RuntimeException failed) {
            if (ApiProblem.from(failed) instanceof ApiProblem problem && problem.isUnavailable()) {
                model.addAttribute("filesUnavailable", true);
                return List.of();
            }
            throw ApiProblem.from(failed);
        }
    }

    private static StoreViews.FileItem item(FileView file) {
        return new StoreViews.FileItem(file.name(), file.size(), file.mediaType(), file.url());
    }

    @PostMapping("/books/{id}/buy")
    String buy(
            @PathVariable long id,
            @RequestParam String quantity,
            @RequestParam String idempotencyKey,
            HttpSession session,
            Model model,
            HttpServletResponse response,
            RedirectAttributes redirect) {
        int copies = parseQuantity(quantity);
        if (copies < 1 || idempotencyKey.isBlank() || idempotencyKey.length() > 100) {
            return message(
                    model,
                    response,
                    400,
                    "Please check the quantity",
                    "Buy between 1 and " + MAX_QUANTITY + " copies, as a whole number.");
        }
        StoreViews.OrderItem order;
        try {
            order = api.send(
                    HttpMethod.POST,
                    "/api/orders",
                    new StoreViews.BuyRequest(id, copies),
                    tokens.bearer(session),
                    Map.of("Idempotency-Key", idempotencyKey),
                    StoreViews.OrderItem.class);
        } catch (ApiProblem problem) {
            if (problem.typeEndsWith("/out-of-stock")) {
                CatalogBook book = lookup(id);
                model.addAttribute("book", book);
                model.addAttribute("wanted", copies);
                response.setStatus(409);
                return "store/out-of-stock";
            }
            if (problem.status() == 404) return unknownBook(id, model, response);
            throw problem;
        }
        // Post/redirect/get: reloading the answer shows the orders again, it does not buy again.
        redirect.addAttribute("placed", order.orderId());
        return "redirect:/orders";
    }

    @GetMapping("/orders")
    String orders(@RequestParam(required = false) Long placed, HttpSession session, Model model) {
        StoreViews.OrderPage page =
                api.get("/api/orders?page=0&size=50", tokens.bearer(session), StoreViews.OrderPage.class);
        List<StoreViews.OrderRow> rows = new ArrayList<>();
        Map<Long, String> titles = new LinkedHashMap<>();
        for (StoreViews.OrderItem order : page.content()) {
            String title = titles.computeIfAbsent(order.bookId(), bookId -> {
                CatalogBook book = lookupQuietly(bookId);
                return book == null ? "Book " + bookId : book.title();
            });
            rows.add(new StoreViews.OrderRow(order, title));
        }
        model.addAttribute("orders", rows);
        model.addAttribute("total", page.totalElements());
        model.addAttribute("placed", placed);
        return "store/orders";
    }

    private CatalogBook lookup(long id) {
        if (id <= 0) return null;
        try {
            return switch (finding.lookup(id)) {
                case FindingBooks.Lookup.Found found -> found.book();
                case FindingBooks.Lookup.Unknown unknown -> null;
            };
        } catch (RuntimeException failed) {
            throw ApiProblem.from(failed);
        }
    }

    private CatalogBook lookupQuietly(long id) {
        try {
            return lookup(id);
        } catch (ApiProblem unavailable) {
            return null;
        }
    }

    private static String unknownBook(long id, Model model, HttpServletResponse response) {
        return message(
                model,
                response,
                404,
                "No such book",
                "The store has no book number " + id + ". Search the store for another.");
    }

    private static String message(Model model, HttpServletResponse response, int status, String title, String text) {
        response.setStatus(status);
        model.addAttribute("status", status);
        model.addAttribute("title", title);
        model.addAttribute("message", text);
        return "message";
    }

    private static int parseQuantity(String quantity) {
        try {
            int copies = Integer.parseInt(quantity.strip());
            return copies <= MAX_QUANTITY ? copies : -1;
        } catch (NumberFormatException notWhole) {
            return -1;
        }
    }

    private static boolean containsWords(String title, String words) {
        String haystack = title.toLowerCase(Locale.ROOT);
        for (String word : words.toLowerCase(Locale.ROOT).split("\\s+")) {
            if (!word.isEmpty() && !haystack.contains(word)) return false;
        }
        return true;
    }

    private static String trimmed(String value, int max) {
        if (value == null || value.isBlank()) return null;
        String stripped = value.strip();
        return stripped.length() > max ? stripped.substring(0, max) : stripped;
    }
}
