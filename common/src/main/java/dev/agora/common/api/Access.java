package dev.agora.common.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Who may call an operation, as its OpenAPI description says it ({@link ApiDocumentation}): the security rules
 * ({@code AccessRules}) decide, this tells clients. An operation without it has no security requirement in the
 * document, which the document's validation test refuses, so a new endpoint cannot go undescribed.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Access {

    /** The roles of which the caller needs one; none: anyone, without a token. */
    String[] value() default {};

    /** What the service checks beyond the role (an account's owner), for the description. */
    String note() default "";
}
