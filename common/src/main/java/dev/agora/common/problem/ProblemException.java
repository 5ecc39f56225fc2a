package dev.agora.common.problem;

import java.net.URI;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** A client-facing error as problem+json ({@link AgoraProblemHandler}); web edge only, domain code returns results. */
public class ProblemException extends ErrorResponseException {

    public ProblemException(HttpStatus status, URI type, String detail) {
        super(status, ProblemDetail.forStatusAndDetail(status, detail), null);
        setType(type);
    }

    private ProblemException(ProblemDetail body) {
        super(HttpStatusCode.valueOf(body.getStatus()), body, null);
    }

    public static ProblemException notFound(String detail) {
        return new ProblemException(HttpStatus.NOT_FOUND, ProblemTypes.NOT_FOUND, detail);
    }

    public static ProblemException badRequest(String detail) {
        return new ProblemException(HttpStatus.BAD_REQUEST, ProblemTypes.BAD_REQUEST, detail);
    }

    /**
     * 400 {@link ProblemTypes#VALIDATION}, the answer bean validation gives: for input checked by hand where a
     * validator's reflection would cost more than the request (the hottest reads).
     */
    public static ProblemException invalid(String parameter, String reason) {
        return new ProblemException(AgoraProblemHandler.validation(Map.of(parameter, reason)));
    }

    public static ProblemException unavailable(String detail) {
        return new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, ProblemTypes.SERVICE_UNAVAILABLE, detail);
    }

    /** 503 {@link ProblemTypes#NOT_APPLIED}: refused before anything of the request was applied; safe to send again. */
    public static ProblemException notApplied(String detail) {
        return new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, ProblemTypes.NOT_APPLIED, detail);
    }
}
