/**
 * The local cluster fixture, shared by the services' tests and perf's launcher: service processes from the
 * reactor's exec jars ({@link dev.agora.local.cluster.LocalProcesses}) in the local profile with their database
 * and peers ({@link dev.agora.local.cluster.LocalProfile}), free ports ({@link dev.agora.local.cluster.FreePorts})
 * and health beyond readiness ({@link dev.agora.local.cluster.Health}). The process itself (start, ready, kill,
 * freeze, thaw, stop) is {@link dev.agora.local.process.ServiceProcess}. Test and launcher scope only: no
 * service's exec jar carries this module.
 */
package dev.agora.local.cluster;
