package dev.agora.frontend.web;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/** The sign-in form; Spring Security's form login takes its POST. */
@Controller
class LoginController {

    @GetMapping("/login")
    String login() {
        return "login";
    }
}
