package dev.agora.frontend.book;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Set;
import org.springframework.web.accept.ContentNegotiationManager;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The book reads' routes ({@link BookController}: lookups and searches, the system's hottest requests) in a handler
 * mapping of their own, asked before Spring MVC's main one. A route with a path variable is found by testing the
 * request against every mapping of its handler mapping in turn, and the main one holds every page, file and proxy
 * route of the frontend; this one holds four. It answers only for what it holds: a request it has no route for,
 * even on a path it knows with another method (a {@code PUT} of a book goes to the proxy), goes on to the main
 * mapping, which also holds these routes and answers such requests as before.
 */
final class BookRoutesFirst extends RequestMappingHandlerMapping {

    /** Before Spring MVC's {@code RequestMappingHandlerMapping}, whose order is 0. */
    static final int ORDER = -1;

    BookRoutesFirst(ContentNegotiationManager contentNegotiation) {
        setOrder(ORDER);
        setContentNegotiationManager(contentNegotiation);
    }

    @Override
    protected boolean isHandler(Class<?> beanType) {
        return beanType == BookController.class;
    }

    @Override
    protected HandlerMethod handleNoMatch(
            Set<RequestMappingInfo> infos, String lookupPath, HttpServletRequest request) {
        return null;
    }
}
