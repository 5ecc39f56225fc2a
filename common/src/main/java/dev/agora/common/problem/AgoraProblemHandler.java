package dev.agora.common.problem;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Spring MVC's problem+json answers, typed by status ({@link ProblemTypes#of(HttpStatusCode)}) where Spring leaves
 * {@code about:blank}, validation failures naming the invalid fields, and anything else as a 500 revealing nothing.
 */
@RestControllerAdvice
public class AgoraProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(AgoraProblemHandler.class);
    private static final URI ABOUT_BLANK = URI.create("about:blank");

    /** A pool that found no free connection within its wait is a bound reached (503), not a bug. */
    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception ex, WebRequest request) {
        String busy = BusyPools.busy(ex);
        HttpHeaders headers = new HttpHeaders();
        if (busy == null) {
            log.error("Unhandled error", ex);
            var body =
                    ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR, "An unexpected error occurred");
            return handleExceptionInternal(ex, body, headers, HttpStatus.INTERNAL_SERVER_ERROR, request);
        }
        log.warn("{}: {}", busy, ex.getMessage());
        headers.set(HttpHeaders.RETRY_AFTER, "1");
        var body = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, busy + "; try again");
        return handleExceptionInternal(ex, body, headers, HttpStatus.SERVICE_UNAVAILABLE, request);
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(
            MethodArgumentNotValidException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        Map<String, String> errors = new LinkedHashMap<>();
        ex.getBindingResult().getFieldErrors().forEach(e -> errors.put(e.getField(), e.getDefaultMessage()));
        return handleExceptionInternal(ex, validation(errors), headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(
            HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        Map<String, String> errors = new LinkedHashMap<>();
        ex.getParameterValidationResults().forEach(r -> r.getResolvableErrors()
                .forEach(e -> errors.put(r.getMethodParameter().getParameterName(), e.getDefaultMessage())));
        return handleExceptionInternal(ex, validation(errors), headers, HttpStatus.BAD_REQUEST, request);
    }

    /** A body refused while it was read (the cap on a chunked body) keeps that answer, wrapped as Jackson may have. */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (ex.getMostSpecificCause() instanceof ErrorResponseException refused) {
            return handleErrorResponseException(refused, refused.getHeaders(), refused.getStatusCode(), request);
        }
        return super.handleHttpMessageNotReadable(ex, headers, status, request);
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception ex, Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        if (body == null && ex instanceof ErrorResponse errorResponse) body = errorResponse.getBody();
        if (body instanceof ProblemDetail problem
                && (problem.getType() == null || ABOUT_BLANK.equals(problem.getType()))) {
            problem.setType(ProblemTypes.of(statusCode));
        }
        return super.handleExceptionInternal(ex, body, headers, statusCode, request);
    }

    /** 400 {@link ProblemTypes#VALIDATION}, each invalid field or parameter named in {@code errors} with why. */
    static ProblemDetail validation(Map<String, String> errors) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "Request is invalid");
        body.setType(ProblemTypes.VALIDATION);
        body.setProperty("errors", errors);
        return body;
    }
}
