package dev.agora.common.problem;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/** Writes problem+json from places outside Spring MVC's exception handling, such as servlet filters. */
public final class ProblemResponses {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ProblemResponses() {}

    public static void write(HttpServletResponse response, HttpStatus status, URI type, String detail)
            throws IOException {
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", type.toString());
        problem.put("title", status.getReasonPhrase());
        problem.put("status", status.value());
        problem.put("detail", detail);
        response.getOutputStream().write(JSON.writeValueAsBytes(problem));
    }
}
