package dev.agora.order;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.RestController;

class ArchitectureTest {

    private static final JavaClasses ORDERS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // Only this module's classes: scanning every jar on the class path for the package takes seconds.
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.agora.order");

    @Test
    void theSagaSeesTheCatalogOnlyThroughItsStockPort() {
        noClasses()
                .that()
                .resideInAPackage("..order.order..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("..order.catalog..", "..order.recovery..", "org.springframework.web.client..")
                .check(ORDERS);
    }

    @Test
    void controllersArePackagePrivate() {
        classes()
                .that()
                .areAnnotatedWith(RestController.class)
                .should()
                .notBePublic()
                .check(ORDERS);
    }
}
