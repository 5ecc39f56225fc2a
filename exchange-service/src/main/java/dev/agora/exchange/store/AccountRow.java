package dev.agora.exchange.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/**
 * An exchange account as PostgreSQL holds it: what the engine's {@code Account} is rebuilt from, and what a batch
 * writes of it. The owner is fixed when the account is opened, so an update writes the balance alone.
 */
@Entity
@Table(name = "account")
public class AccountRow {

    @Id
    @Column(name = "id")
    String id;

    @Column(name = "balance")
    BigDecimal balance;

    @Column(name = "owner", updatable = false)
    String owner;

    protected AccountRow() {}

    AccountRow(String id, BigDecimal balance, String owner) {
        this.id = id;
        this.balance = balance;
        this.owner = owner;
    }

    public String id() {
        return id;
    }

    public BigDecimal balance() {
        return balance;
    }

    public String owner() {
        return owner;
    }
}
