package dev.agora.common.client;

import dev.agora.common.problem.ProblemException;
import dev.agora.common.problem.ProblemTypes;
import org.springframework.http.HttpStatus;

/** No replica of a service could serve a call; rendered as a 503 problem. */
public class ServiceUnavailableException extends ProblemException {

    private final String serviceId;

    public ServiceUnavailableException(String serviceId, String detail) {
        super(HttpStatus.SERVICE_UNAVAILABLE, ProblemTypes.SERVICE_UNAVAILABLE, detail);
        this.serviceId = serviceId;
    }

    public String serviceId() {
        return serviceId;
    }
}
