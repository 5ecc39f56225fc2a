package dev.agora.catalog;

import dev.agora.common.problem.ProblemTypes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * A statement that waited for a row lock longer than the database's {@code lock_timeout} (a replica frozen inside a
 * transaction on the same book, application.yml) or was chosen to break a deadlock: its transaction rolled back, so
 * nothing of the request was applied and it may be sent again, here or to another replica. Answered 503
 * {@code not-applied} rather than common's 500 for an unexpected error; ahead of common's handler, which takes every
 * exception.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class RowLockRefusals {

    private static final Logger log = LoggerFactory.getLogger(RowLockRefusals.class);

    @ExceptionHandler(PessimisticLockingFailureException.class)
    ResponseEntity<ProblemDetail> lockedTooLong(PessimisticLockingFailureException ex) {
        log.warn(
                "Refused with nothing applied, a row stayed locked: {}",
                ex.getMostSpecificCause().getMessage());
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                HttpStatus.SERVICE_UNAVAILABLE,
                "A row this request needs is locked by another transaction; nothing was applied, try again");
        problem.setType(ProblemTypes.NOT_APPLIED);
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, "1")
                .body(problem);
    }
}
