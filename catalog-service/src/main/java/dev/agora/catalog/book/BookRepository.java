package dev.agora.catalog.book;

import jakarta.persistence.LockModeType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

interface BookRepository extends JpaRepository<Book, Long> {

    /**
     * What a reservation records of the book it took copies from, read by the statement that took them. A record, so
     * Hibernate builds it from the row through its constructor: an interface here would be a proxy per row, each getter
     * a trip through Spring Data's interceptors and conversions.
     */
    record TakenCopies(BigDecimal price, long stock, long version, String topic) {}

    /**
     * Takes {@code quantity} copies in one conditional update when that many are left (never below zero), raising the
     * version, and returns the row as the update left it; empty, with nothing changed, when too few are left or there
     * is no such book. The row stays locked until the transaction ends. Native, because JPQL has no {@code RETURNING}:
     * without it the decision's price and stock would take another statement.
     */
    @Query(
            value =
                    """
                    update books set stock = stock - :quantity, version = version + 1
                    where id = :id and stock >= :quantity
                    returning price, stock, version, topic""",
            nativeQuery = true)
    Optional<TakenCopies> takeIfLeft(long id, int quantity);

    /** A book's row as a batch of reservations locked it ({@link #lockAll}). */
    record LockedRow(long id, BigDecimal price, long stock, long version, String topic) {}

    /**
     * The books, their rows locked until the transaction ends, taken in id order so that two batches (of this replica
     * and another) wanting the same books wait for each other instead of deadlocking. {@code lockWait} is this
     * transaction's {@code lock_timeout} from here on (set by the same statement: {@code set_config} in the filter
     * runs while the rows are read, before the sort hands them to be locked), so a batch stuck behind a frozen holder
     * gives up sooner than a single reservation would. Unknown ids are left out.
     */
    @Query(
            value =
                    """
                    select id, price, stock, version, topic from books
                    where id = any(cast(:ids as bigint[])) and set_config('lock_timeout', :lockWait, true) is not null
                    order by id
                    for no key update""",
            nativeQuery = true)
    List<LockedRow> lockAll(Long[] ids, String lockWait);

    /** The book, its row locked until the transaction ends ({@code SELECT ... FOR NO KEY UPDATE}). */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select b from Book b where b.id = :id")
    Optional<Book> lockById(long id);

    @Query("select new dev.agora.catalog.book.BookView(b.id, b.title, b.topic, b.price, b.stock, b.version)"
            + " from Book b where b.id = :id")
    Optional<BookView> findView(long id);

    @Query("select new dev.agora.catalog.book.BookSummary(b.id, b.title) from Book b where b.topic = :topic"
            + " order by b.id")
    List<BookSummary> search(String topic);

    /** One atomic statement: a price change racing with reservations loses none of their decrements. */
    @Modifying
    @Query("update Book b set b.price = :price, b.version = b.version + 1 where b.id = :id")
    int changePrice(long id, BigDecimal price);

    /** One atomic statement: a restock racing with reservations loses none of their decrements, nor they its copies. */
    @Modifying
    @Query("update Book b set b.stock = b.stock + :quantity, b.version = b.version + 1 where b.id = :id")
    int restock(long id, long quantity);
}
