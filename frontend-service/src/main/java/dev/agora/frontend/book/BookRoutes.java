package dev.agora.frontend.book;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agora.common.problem.ProblemException;
import dev.agora.common.timing.ServerTiming;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * Search and lookup, the system's hottest requests: the public API and the classic routes of the original lab
 * systems. A cached answer is a few microseconds of work, and an annotated controller's machinery around it cost
 * more than that on every request: bean validation by reflection, argument resolvers, content negotiation, Jackson,
 * and matching against every mapping of the frontend. So these are functional routes, in a handler mapping of their
 * own that is asked first ({@link BookRoutesConfiguration}); the input is checked by hand and refused with the problem
 * bean validation gives; and a cached book or search is rendered to JSON once, its bytes sent from then on.
 */
final class BookRoutes {

    static final int MAX_TOPIC = 100;

    private final FindingBooks finding;
    private final JsonMapper json;
    /**
     * The JSON of each cached answer, by identity: the cache hands out the same immutable object until it drops or
     * replaces it, and then this entry, weakly held, goes with it.
     */
    private final Cache<Object, byte[]> rendered;

    BookRoutes(FindingBooks finding, JsonMapper json, CacheSettings settings) {
        this.finding = finding;
        this.json = json;
        this.rendered = Caffeine.newBuilder()
                .weakKeys()
                .maximumSize(settings.maxLookups() + settings.maxSearches())
                .build();
    }

    RouterFunction<ServerResponse> routes() {
        return RouterFunctions.route()
                .GET("/api/books", request -> search(request.param("topic").orElse(null)))
                .GET("/api/books/{id}", request -> lookup(request.pathVariable("id")))
                .GET("/search/{topic}", request -> search(request.pathVariable("topic")))
                .GET("/lookup/{id}", request -> lookup(request.pathVariable("id")))
                .build();
    }

    private ServerResponse search(String topic) {
        if (topic == null || topic.isBlank()) throw ProblemException.invalid("topic", "must not be blank");
        if (topic.length() > MAX_TOPIC) {
            throw ProblemException.invalid("topic", "must be at most " + MAX_TOPIC + " characters");
        }
        FindingBooks.Search search = finding.search(topic);
        ServerTiming.describe("cache", search.cache().label());
        return json(render(search.hits(), search.hits(), search.cache()));
    }

    private ServerResponse lookup(String id) {
        long bookId = bookId(id);
        FindingBooks.Lookup lookup = finding.lookup(bookId);
        ServerTiming.describe("cache", lookup.cache().label());
        return switch (lookup) {
            case FindingBooks.Lookup.Found found ->
                json(render(found.book(), BookView.of(found.book()), found.cache()));
            case FindingBooks.Lookup.Unknown unknown -> throw ProblemException.notFound("No book with id " + bookId);
        };
    }

    private static long bookId(String id) {
        long bookId;
        try {
            bookId = Long.parseLong(id);
        } catch (NumberFormatException notANumber) {
            throw ProblemException.invalid("id", "must be a whole number");
        }
        if (bookId <= 0) throw ProblemException.invalid("id", "must be greater than 0");
        return bookId;
    }

    /** A hit's JSON as rendered for the first hit of the same cached object; anything else rendered now. */
    private byte[] render(Object answer, Object view, CacheUse cache) {
        if (cache != CacheUse.HIT) return json.writeValueAsBytes(view);
        return rendered.get(answer, unused -> json.writeValueAsBytes(view));
    }

    private static ServerResponse json(byte[] body) {
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }
}
