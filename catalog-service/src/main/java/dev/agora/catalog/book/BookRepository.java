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
