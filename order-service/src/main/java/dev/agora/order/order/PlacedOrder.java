package dev.agora.order.order;

import jakarta.persistence.Column;
import jakarta.persistence.ColumnResult;
import jakarta.persistence.ConstructorResult;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SqlResultSetMapping;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.Instant;
import org.hibernate.annotations.Generated;

/**
 * A row of the order log: one buy under its buyer's idempotency key, from PENDING to its final state. Created by
 * {@link Orders#insertPending}; its final state is written once, by a conditional update that only a PENDING row
 * matches ({@link PlacedOrders#confirm}, {@link PlacedOrders#reject}). Shown as an {@link Order}.
 */
@Entity
@Table(name = "orders")
@SqlResultSetMapping(
        name = PlacedOrder.INSERTED,
        classes =
                @ConstructorResult(
                        targetClass = PlacedOrders.Inserted.class,
                        columns = {
                            @ColumnResult(name = "id", type = Long.class),
                            @ColumnResult(name = "created_at", type = Instant.class)
                        }))
@SqlResultSetMapping(
        name = PlacedOrder.INSERTED_FOR_KEY,
        classes =
                @ConstructorResult(
                        targetClass = PlacedOrders.InsertedForKey.class,
                        columns = {
                            @ColumnResult(name = "id", type = Long.class),
                            @ColumnResult(name = "created_at", type = Instant.class),
                            @ColumnResult(name = "idempotency_key", type = String.class),
                            @ColumnResult(name = "owner", type = String.class)
                        }))
public class PlacedOrder {

    /** How {@link PlacedOrders#insertPending} reads its {@code RETURNING} row: the new id and creation time. */
    static final String INSERTED = "PlacedOrder.inserted";

    /** How {@link PlacedOrders#insertAllPending} reads its {@code RETURNING} rows: also whose key each one has. */
    static final String INSERTED_FOR_KEY = "PlacedOrder.insertedForKey";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "idempotency_key", nullable = false, length = 100)
    private String idempotencyKey;

    /** The buyer (their token's subject); null for an anonymous classic buy. */
    private String owner;

    @Column(name = "book_id", nullable = false)
    private long bookId;

    @Column(nullable = false)
    private int quantity;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    private OrderStatus status;

    @Column(precision = 14, scale = 2)
    private BigDecimal total;

    @Enumerated(EnumType.STRING)
    @Column(length = 32)
    private Rejection rejection;

    /** The database's clock at the insert (its column default). */
    @Generated
    @Column(name = "created_at", insertable = false, updatable = false)
    private Instant createdAt;

    /** The database's clock at the last change: the insert, then the final state (the recovery sweeper's age). */
    @Column(name = "updated_at", insertable = false)
    private Instant updatedAt;

    /** Its place among all confirmations (the raffle's count); null until confirmed. */
    private Long confirmation;

    /** A raffle winner's refund, its total; null for everyone else. */
    @Column(precision = 14, scale = 2)
    private BigDecimal refunded;

    protected PlacedOrder() {}

    public Order view() {
        return new Order(
                id,
                idempotencyKey,
                owner,
                bookId,
                quantity,
                status,
                total,
                rejection,
                createdAt,
                confirmation,
                refunded);
    }

    /** When the row last changed; for a raffle winner, when its confirmation committed. */
    public Instant updatedAt() {
        return updatedAt;
    }
}
