package dev.agora.common.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Who may call an operation, as its OpenAPI description tells clients ({@link ApiDocumentation}); {@code AccessRules}
 * decide. The document's validation test refuses an operation without it, so no endpoint goes undescribed.
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
