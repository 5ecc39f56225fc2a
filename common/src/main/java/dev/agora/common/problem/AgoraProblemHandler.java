package dev.agora.common.problem;

import jakarta.validation.ConstraintViolationException;
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
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Turns every error a controller raises into RFC 9457 problem+json with a stable {@code type}.
 * Nothing internal (stack traces, SQL, class names) leaves the service.
 */
@RestControllerAdvice
public class AgoraProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(AgoraProblemHandler.class);
    private static final URI ABOUT_BLANK = URI.create("about:blank");

    @ExceptionHandler(ConstraintViolationException.class)
    ResponseEntity<Object> constraintViolation(ConstraintViolationException ex, WebRequest request) {
        Map<String, String> errors = new LinkedHashMap<>();
        ex.getConstraintViolations().forEach(v -> errors.put(String.valueOf(v.getPropertyPath()), v.getMessage()));
        return handleExceptionInternal(ex, validation(errors), new HttpHeaders(), HttpStatus.BAD_REQUEST, request);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<Object> typeMismatch(MethodArgumentTypeMismatchException ex, WebRequest request) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(
                HttpStatus.BAD_REQUEST, "Parameter '" + ex.getName() + "' has an invalid value");
        body.setType(ProblemTypes.BAD_REQUEST);
        return handleExceptionInternal(ex, body, new HttpHeaders(), HttpStatus.BAD_REQUEST, request);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception ex, WebRequest request) {
        String busy = BusyPools.busy(ex);
        if (busy != null) {
            // A pool found no free connection within its wait: a bound reached, not a bug.
            log.warn("{}: {}", busy, ex.getMessage());
            ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, busy + "; try again");
            body.setType(ProblemTypes.SERVICE_UNAVAILABLE);
            HttpHeaders headers = new HttpHeaders();
            headers.set(HttpHeaders.RETRY_AFTER, "1");
            return handleExceptionInternal(ex, body, headers, HttpStatus.SERVICE_UNAVAILABLE, request);
        }
        log.error("Unhandled error", ex);
        ProblemDetail body =
                ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR, "An unexpected error occurred");
        body.setType(ProblemTypes.INTERNAL);
        return handleExceptionInternal(ex, body, new HttpHeaders(), HttpStatus.INTERNAL_SERVER_ERROR, request);
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

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail body =
                ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "Request body is missing or malformed");
        body.setType(ProblemTypes.BAD_REQUEST);
        return handleExceptionInternal(ex, body, headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception ex, Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        if (body == null && ex instanceof ErrorResponse errorResponse) body = errorResponse.getBody();
        if (body instanceof ProblemDetail problem && lacksType(problem)) {
            problem.setType(defaultType(ex, statusCode));
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

    private static boolean lacksType(ProblemDetail problem) {
        return problem.getType() == null || ABOUT_BLANK.equals(problem.getType());
    }

    private static URI defaultType(Exception ex, HttpStatusCode status) {
        if (ex instanceof NoResourceFoundException) return ProblemTypes.NOT_FOUND;
        if (ex instanceof HttpRequestMethodNotSupportedException) return ProblemTypes.METHOD_NOT_ALLOWED;
        if (ex instanceof HttpMediaTypeNotSupportedException) return ProblemTypes.UNSUPPORTED_MEDIA_TYPE;
        return switch (status.value()) {
            case 400 -> ProblemTypes.BAD_REQUEST;
            case 401 -> ProblemTypes.UNAUTHORIZED;
            case 403 -> ProblemTypes.FORBIDDEN;
            case 404 -> ProblemTypes.NOT_FOUND;
            case 409 -> ProblemTypes.CONFLICT;
            case 503 -> ProblemTypes.SERVICE_UNAVAILABLE;
            default -> status.is4xxClientError() ? ProblemTypes.BAD_REQUEST : ProblemTypes.INTERNAL;
        };
    }
}
