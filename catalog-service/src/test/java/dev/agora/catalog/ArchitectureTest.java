package dev.agora.catalog;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jakarta.persistence.Entity;
import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.RestController;

class ArchitectureTest {

    private static final JavaClasses CATALOG = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // Only this module's classes: scanning every jar on the class path for the package takes seconds.
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.agora.catalog");

    @Test
    void booksKnowNothingOfReservationsOrInvalidationAndReservationsNothingOfInvalidation() {
        noClasses()
                .that()
                .resideInAPackage("..catalog.book..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("..catalog.reservation..", "..catalog.invalidation..")
                .check(CATALOG);
        noClasses()
                .that()
                .resideInAPackage("..catalog.reservation..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("..catalog.invalidation..")
                .check(CATALOG);
    }

    @Test
    void controllersArePackagePrivateAndEntitiesStayInTheirPackage() {
        classes()
                .that()
                .areAnnotatedWith(RestController.class)
                .should()
                .notBePublic()
                .check(CATALOG);
        classes().that().areAnnotatedWith(Entity.class).should().notBePublic().check(CATALOG);
    }
}
