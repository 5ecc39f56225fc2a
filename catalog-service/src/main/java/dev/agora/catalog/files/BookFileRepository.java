package dev.agora.catalog.files;

import java.util.List;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

interface BookFileRepository extends JpaRepository<BookFile, BookFile.Key> {

    /** The book's files by name, those after {@code after} (all when it is empty), the first {@code page.size} of them. */
    @Query("select f from BookFile f join fetch f.blob where f.bookId = :bookId and f.name > :after order by f.name")
    List<BookFile> ofBook(long bookId, String after, Pageable page);
}
