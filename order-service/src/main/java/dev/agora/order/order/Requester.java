package dev.agora.order.order;

import dev.agora.common.security.Callers;
import dev.agora.common.security.Roles;
import java.util.Optional;

/**
 * Who calls, as far as orders go. A person's orders are those placed with their token: its subject is the
 * owner. A service (scope {@code internal} without the customer role: a frontend's anonymous classic buy) places
 * orders without an owner and owns none. An admin reads everyone's.
 *
 * @param owner the owner of the orders this caller places and reads as their own; empty for a service
 * @param admin reads every order
 */
record Requester(Optional<String> owner, boolean admin) {

    /** The caller of the current request, as the security filter chain authenticated it. */
    static Requester current() {
        boolean service = Callers.isService() && !Callers.hasRole(Roles.CUSTOMER);
        return new Requester(service ? Optional.empty() : Callers.subject(), Callers.hasRole(Roles.ADMIN));
    }

    boolean mayRead(Order order) {
        return admin || owner.isPresent() && owner.get().equals(order.owner());
    }
}
