package dev.agora.frontend.web;

import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/** What every page's header needs: who is signed in (or {@code null}). */
@ControllerAdvice(basePackages = "dev.agora.frontend.web")
class PageModel {

    @ModelAttribute("person")
    Person person() {
        return Person.of(SecurityContextHolder.getContext().getAuthentication());
    }
}
