package dev.agora.perf.experiment;

/** Where the seeds' figures came from, as far as their reports say. */
public final class Seeds {

    public static final String HARDWARE_000 =
            "4-core Intel Core i7-3610QM, hyperthreading (8 logical cores), 3.3 GHz, Linux 4.11; Python";
    public static final String HARDWARE_001 =
            "VM1: 2 cores, 2 GB RAM; VM2: 4 cores, 8 GB RAM; Python threads under the GIL";
    public static final String HARDWARE_002 = "not stated in the report (2019 student lab, Python)";
    public static final String HARDWARE_003 = "Intel Core i5, 6 GB RAM, clients and servers on one machine";
    public static final String HARDWARE_004 = "not stated in the report (student lab 2, Python)";
    public static final String HARDWARE_002_004 = "002: " + HARDWARE_002 + "; 004: " + HARDWARE_004;

    private Seeds() {}
}
