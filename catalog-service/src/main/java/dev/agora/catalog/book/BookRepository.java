package dev.agora.catalog.book;

import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;

interface BookRepository extends JpaRepository<Book, Long> {

    List<Book> findByTopicOrderById(String topic);
}
