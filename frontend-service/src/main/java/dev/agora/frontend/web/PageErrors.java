package dev.agora.frontend.web;

import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.authentication.DisabledException;
import org.springframework.ui.Model;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * Failures on a page become a page a person can read, with the right status: an unknown book or order, a service
 * that is down, a refusal; never a stack trace or a problem+json body. (The API keeps its problems.)
 */
@ControllerAdvice(basePackages = "dev.agora.frontend.web")
@Order(Ordered.HIGHEST_PRECEDENCE)
class PageErrors {

    private static final Logger log = LoggerFactory.getLogger(PageErrors.class);

    @ExceptionHandler(ApiProblem.class)
    String apiProblem(ApiProblem problem, Model model, HttpServletResponse response) {
        int status = problem.status();
        if (problem.isUnavailable()) {
            return page(
                    model,
                    response,
                    503,
                    "Service unavailable",
                    "This part of Agora cannot answer right now. Nothing was changed; please try again in a moment.");
        }
        return switch (status) {
            case 404 -> page(model, response, 404, "Not found", problem.detail());
            case 401, 403 -> page(model, response, 403, "Not allowed", problem.detail());
            case 429 -> page(model, response, 429, "Too many requests", "Please wait a moment and try again.");
            default -> {
                if (status >= 500) log.warn("A page's API call failed: {} {}", status, problem.detail());
                yield page(model, response, status >= 400 ? status : 502, "Something went wrong", problem.detail());
            }
        };
    }

    /** The person was disabled or removed since signing in, and {@link SessionTokens} signed them out. */
    @ExceptionHandler(DisabledException.class)
    String signedOut() {
        return "redirect:/login";
    }

    /** {@code /books/abc}, {@code /books/-1}: no such page. */
    @ExceptionHandler({MethodArgumentTypeMismatchException.class, HandlerMethodValidationException.class})
    String badPath(Model model, HttpServletResponse response) {
        return page(
                model, response, 404, "Not found", "There is no such page. Check the address, or search the store.");
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    String missingField(MissingServletRequestParameterException missing, Model model, HttpServletResponse response) {
        return page(model, response, 400, "Something is missing", "Please fill in " + missing.getParameterName() + ".");
    }

    static String page(Model model, HttpServletResponse response, int status, String title, String message) {
        response.setStatus(status);
        model.addAttribute("status", status);
        model.addAttribute("title", title);
        model.addAttribute("message", message);
        return "message";
    }
}
