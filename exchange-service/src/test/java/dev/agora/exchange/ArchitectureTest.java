package dev.agora.exchange;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

@AnalyzeClasses(packages = "dev.agora.exchange", importOptions = ArchitectureTest.ProductionCode.class)
class ArchitectureTest {

    /**
     * Production classes only, whatever the build's output folder is called ({@code -Dagora.target=...} builds
     * put classes in {@code target-x/}, which ArchUnit's own test filter does not recognize).
     */
    static final class ProductionCode implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("/test-classes/");
        }
    }

    /** The matching core is plain Java: no Spring, no JDBC, nothing but the JDK and itself. */
    @ArchTest
    static final ArchRule matchingCoreDependsOnlyOnTheJdk = classes()
            .that()
            .resideInAPackage("dev.agora.exchange.matching..")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage("dev.agora.exchange.matching..", "java.lang..", "java.math..", "java.util..");

    /** Only the store talks to the database (the wiring only hands it a data source). */
    @ArchTest
    static final ArchRule onlyTheStoreUsesJdbc = noClasses()
            .that()
            .resideOutsideOfPackages("dev.agora.exchange.store..")
            .and()
            .doNotHaveFullyQualifiedName("dev.agora.exchange.ExchangeConfiguration")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("java.sql..", "javax.sql..", "org.springframework.jdbc..");

    /**
     * Only the store knows the tables' entities and repositories (the wiring only hands it the persistence unit): the
     * engine's state is written by the sequencer alone, so nothing else may read or change it behind its back.
     */
    @ArchTest
    static final ArchRule onlyTheStoreUsesJpa = noClasses()
            .that()
            .resideOutsideOfPackages("dev.agora.exchange.store..")
            .and()
            .doNotHaveFullyQualifiedName("dev.agora.exchange.ExchangeConfiguration")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "jakarta.persistence..",
                    "org.hibernate..",
                    "org.springframework.data.jpa..",
                    "org.springframework.orm..");

    /** The protocol edges reach the engine only through the sequencer (one writer, one total order). */
    @ArchTest
    static final ArchRule edgesDoNotTouchTheStore = noClasses()
            .that()
            .resideInAnyPackage("dev.agora.exchange.xml..", "dev.agora.exchange.api..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.agora.exchange.store..");
}
