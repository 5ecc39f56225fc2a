package dev.agora.catalog.reservation;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.agora.common.problem.ProblemException;
import dev.agora.common.problem.ProblemTypes;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * One request's answer in a batch call: {@code status} 200 and the {@code reservation} the single call would answer,
 * or the single call's status and its {@code problem} (404 unknown book, 409 another reservation under this order id,
 * 503 when it could not be decided: {@code not-applied} when a row stayed locked; either is safe to send again, by order id).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record BatchEntry(int status, Reservation reservation, ProblemDetail problem) {

    private static final Logger log = LoggerFactory.getLogger(BatchEntry.class);

    /** The entry of one request, {@code answer} being what the single call's controller method does. */
    static BatchEntry of(Supplier<Reservation> answer) {
        try {
            return new BatchEntry(HttpStatus.OK.value(), answer.get(), null);
        } catch (ProblemException refused) {
            return new BatchEntry(refused.getStatusCode().value(), null, refused.getBody());
        } catch (PessimisticLockingFailureException locked) {
            log.warn(
                    "Refused one reservation of a batch, a row stayed locked: {}",
                    locked.getMostSpecificCause().getMessage());
            return notApplied("A row this reservation needs is locked by another transaction; nothing was applied");
        } catch (RuntimeException failed) {
            log.error("Deciding one reservation of a batch failed; nothing of it was applied", failed);
            // Whether its commit went through is not known here: a 503 the caller may send again (by order id, once).
            ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                    HttpStatus.SERVICE_UNAVAILABLE, "Deciding this reservation failed; send it again");
            problem.setType(ProblemTypes.SERVICE_UNAVAILABLE);
            return new BatchEntry(HttpStatus.SERVICE_UNAVAILABLE.value(), null, problem);
        }
    }

    private static BatchEntry notApplied(String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, detail);
        problem.setType(ProblemTypes.NOT_APPLIED);
        return new BatchEntry(HttpStatus.SERVICE_UNAVAILABLE.value(), null, problem);
    }
}
