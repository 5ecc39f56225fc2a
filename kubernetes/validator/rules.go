package main

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The management port every Agora service answers actuator on outside local runs (MANAGEMENT_SERVER_PORT, as in
// compose).
const managementPort = 9000

// workload is a Deployment's or StatefulSet's pod template with what points at it.
type workload struct {
	kind, name string
	replicas   int32
	labels     map[string]string
	pod        corev1.PodSpec
}

type cluster struct {
	objects   []object
	external  map[string]map[string]bool
	workloads []workload
	configMap map[string]map[string]string
	secrets   map[string]map[string]bool
	services  map[string]*corev1.Service
	problems  []string
}

func (c *cluster) fail(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func checkRules(objects []object, external map[string]map[string]bool) []string {
	c := &cluster{objects: objects, external: external, configMap: map[string]map[string]string{},
		secrets: map[string]map[string]bool{}, services: map[string]*corev1.Service{}}
	seen := map[string]bool{}
	for _, o := range objects {
		id := o.apiVersion + "/" + o.kind + "/" + o.name
		if seen[id] {
			c.fail("%s: defined twice", o)
		}
		seen[id] = true
		switch typed := o.typed.(type) {
		case *appsv1.Deployment:
			c.workloads = append(c.workloads, workload{"Deployment", typed.Name, replicas(typed.Spec.Replicas),
				typed.Spec.Template.Labels, typed.Spec.Template.Spec})
			c.checkSelector(o, typed.Spec.Selector.MatchLabels, typed.Spec.Template.Labels)
		case *appsv1.StatefulSet:
			c.workloads = append(c.workloads, workload{"StatefulSet", typed.Name, replicas(typed.Spec.Replicas),
				typed.Spec.Template.Labels, typed.Spec.Template.Spec})
			c.checkSelector(o, typed.Spec.Selector.MatchLabels, typed.Spec.Template.Labels)
		case *corev1.ConfigMap:
			c.configMap[typed.Name] = typed.Data
		case *corev1.Secret:
			keys := map[string]bool{}
			for k := range typed.Data {
				keys[k] = true
			}
			for k := range typed.StringData {
				keys[k] = true
			}
			c.secrets[typed.Name] = keys
		case *corev1.Service:
			c.services[typed.Name] = typed
		}
	}
	for _, w := range c.workloads {
		c.checkWorkload(w)
	}
	for _, o := range objects {
		switch typed := o.typed.(type) {
		case *corev1.Service:
			c.checkService(o, typed)
		case *policyv1.PodDisruptionBudget:
			if typed.Spec.Selector == nil || len(c.matching(typed.Spec.Selector.MatchLabels)) == 0 {
				c.fail("%s: selects no pods", o)
			}
		case *autoscalingv2.HorizontalPodAutoscaler:
			c.checkAutoscaler(o, typed)
		case *networkingv1.NetworkPolicy:
			c.checkNetworkPolicy(o, typed)
		case *networkingv1.Ingress:
			c.checkIngress(o, typed)
		}
	}
	c.checkDatabase()
	c.checkCollector()
	c.checkSettings()
	return c.problems
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

func (c *cluster) checkSelector(o object, selector, labels map[string]string) {
	if len(selector) == 0 || !subset(selector, labels) {
		c.fail("%s: its selector does not match its pod template's labels", o)
	}
}

func subset(selector, labels map[string]string) bool {
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func (c *cluster) matching(selector map[string]string) []workload {
	var found []workload
	for _, w := range c.workloads {
		if len(selector) > 0 && subset(selector, w.labels) {
			found = append(found, w)
		}
	}
	return found
}

// isAgora: one of the project's own services (its image is built from this repository).
func isAgora(container corev1.Container) bool {
	return regexp.MustCompile(`(^|/)agora/[a-z-]+-service(:|$)`).MatchString(container.Image)
}

func (c *cluster) checkWorkload(w workload) {
	where := w.kind + " " + w.name
	pod := w.pod
	volumes := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = v
		if v.ConfigMap != nil {
			c.needConfigMap(where, v.ConfigMap.Name, "", v.ConfigMap.Optional)
		}
		if v.Secret != nil {
			c.needSecret(where, v.Secret.SecretName, "", v.Secret.Optional)
		}
	}
	podNonRoot := pod.SecurityContext != nil && pod.SecurityContext.RunAsNonRoot != nil && *pod.SecurityContext.RunAsNonRoot
	podSeccomp := pod.SecurityContext != nil && pod.SecurityContext.SeccompProfile != nil
	for _, container := range append(append([]corev1.Container{}, pod.InitContainers...), pod.Containers...) {
		at := where + " container " + container.Name
		if s := container.SecurityContext; s == nil {
			c.fail("%s: no securityContext", at)
		} else {
			c.checkSecurity(at, s, podNonRoot, podSeccomp)
		}
		for _, resource := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if _, ok := container.Resources.Requests[resource]; !ok {
				c.fail("%s: no %s request", at, resource)
			}
		}
		if _, ok := container.Resources.Limits[corev1.ResourceMemory]; !ok {
			c.fail("%s: no memory limit", at)
		}
		ports := map[string]int32{}
		numbers := map[int32]bool{}
		for _, p := range container.Ports {
			if p.Name != "" {
				ports[p.Name] = p.ContainerPort
			}
			numbers[p.ContainerPort] = true
		}
		for _, mount := range container.VolumeMounts {
			if _, ok := volumes[mount.Name]; !ok {
				c.fail("%s: mounts volume %s, which the pod does not have", at, mount.Name)
			}
		}
		env := c.environment(at, container)
		probes := map[string]*corev1.Probe{"liveness": container.LivenessProbe, "readiness": container.ReadinessProbe,
			"startup": container.StartupProbe}
		for kind, probe := range probes {
			if probe == nil {
				if kind != "startup" || isAgora(container) {
					c.fail("%s: no %s probe", at, kind)
				}
				continue
			}
			var port intstr.IntOrString
			switch {
			case probe.HTTPGet != nil:
				port = probe.HTTPGet.Port
			case probe.TCPSocket != nil:
				port = probe.TCPSocket.Port
			default:
				c.fail("%s: %s probe is neither HTTP nor TCP", at, kind)
				continue
			}
			number, known := resolvePort(port, ports)
			if !known || !numbers[number] {
				c.fail("%s: %s probe's port %s is not one of the container's ports", at, kind, port.String())
			}
			if isAgora(container) {
				want := map[string]string{"liveness": "/actuator/health/liveness",
					"readiness": "/actuator/health/readiness", "startup": "/actuator/health/liveness"}[kind]
				if probe.HTTPGet == nil || probe.HTTPGet.Path != want || number != managementPort {
					c.fail("%s: %s probe must ask %s on the management port %d", at, kind, want, managementPort)
				}
			}
		}
		if isAgora(container) {
			if ports["management"] != managementPort {
				c.fail("%s: no container port named management (%d)", at, managementPort)
			}
			if env["MANAGEMENT_SERVER_PORT"] != strconv.Itoa(managementPort) {
				c.fail("%s: MANAGEMENT_SERVER_PORT must be %d (is %q)", at, managementPort,
					env["MANAGEMENT_SERVER_PORT"])
			}
			if env["PORT"] == "" || strconv.Itoa(int(ports["http"])) != env["PORT"] {
				c.fail("%s: PORT (%q) must be the container port named http (%d)", at, env["PORT"], ports["http"])
			}
			if env["SPRING_PROFILES_ACTIVE"] == "local" || env["SPRING_PROFILES_ACTIVE"] == "" {
				c.fail("%s: must run a production profile (SPRING_PROFILES_ACTIVE), not %q", at,
					env["SPRING_PROFILES_ACTIVE"])
			}
			if url := env["DATABASE_URL"]; url != "" && !c.databaseHostKnown(url) {
				c.fail("%s: DATABASE_URL %s names no CloudNativePG cluster's -rw Service", at, url)
			}
		}
	}
}

func (c *cluster) checkSecurity(at string, s *corev1.SecurityContext, podNonRoot, podSeccomp bool) {
	if !(podNonRoot || (s.RunAsNonRoot != nil && *s.RunAsNonRoot)) {
		c.fail("%s: must run as non-root (runAsNonRoot)", at)
	}
	if s.ReadOnlyRootFilesystem == nil || !*s.ReadOnlyRootFilesystem {
		c.fail("%s: its root file system must be read-only", at)
	}
	if s.AllowPrivilegeEscalation == nil || *s.AllowPrivilegeEscalation {
		c.fail("%s: allowPrivilegeEscalation must be false", at)
	}
	if s.Capabilities == nil || len(s.Capabilities.Drop) != 1 || s.Capabilities.Drop[0] != "ALL" {
		c.fail("%s: must drop all capabilities", at)
	}
	if !podSeccomp && s.SeccompProfile == nil {
		c.fail("%s: no seccomp profile (RuntimeDefault)", at)
	}
}

func resolvePort(port intstr.IntOrString, named map[string]int32) (int32, bool) {
	if port.Type == intstr.String {
		n, ok := named[port.StrVal]
		return n, ok
	}
	return port.IntVal, true
}

// environment resolves a container's plain values, ConfigMap values (envFrom and configMapKeyRef) and checks that
// every Secret it names exists with that key.
func (c *cluster) environment(at string, container corev1.Container) map[string]string {
	env := map[string]string{}
	for _, from := range container.EnvFrom {
		if from.ConfigMapRef != nil {
			if c.needConfigMap(at, from.ConfigMapRef.Name, "", from.ConfigMapRef.Optional) {
				for k, v := range c.configMap[from.ConfigMapRef.Name] {
					env[from.Prefix+k] = v
				}
			}
		}
		if from.SecretRef != nil {
			c.needSecret(at, from.SecretRef.Name, "", from.SecretRef.Optional)
		}
	}
	names := map[string]bool{}
	for _, e := range container.Env {
		if names[e.Name] {
			c.fail("%s: %s set twice", at, e.Name)
		}
		names[e.Name] = true
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		case e.ValueFrom.ConfigMapKeyRef != nil:
			ref := e.ValueFrom.ConfigMapKeyRef
			if c.needConfigMap(at, ref.Name, ref.Key, ref.Optional) {
				env[e.Name] = c.configMap[ref.Name][ref.Key]
			}
		case e.ValueFrom.SecretKeyRef != nil:
			ref := e.ValueFrom.SecretKeyRef
			c.needSecret(at, ref.Name, ref.Key, ref.Optional)
			env[e.Name] = "(secret)"
		default:
			env[e.Name] = "(from the pod)"
		}
	}
	return env
}

func (c *cluster) needConfigMap(at, name, key string, optional *bool) bool {
	data, ok := c.configMap[name]
	if optional != nil && *optional {
		return ok
	}
	if !ok {
		c.fail("%s: ConfigMap %s is not in the manifests", at, name)
		return false
	}
	if _, has := data[key]; key != "" && !has {
		c.fail("%s: ConfigMap %s has no key %s", at, name, key)
		return false
	}
	return true
}

func (c *cluster) needSecret(at, name, key string, optional *bool) {
	keys, ok := c.secrets[name]
	if !ok {
		keys, ok = c.external[name]
	}
	if optional != nil && *optional {
		return
	}
	if !ok {
		c.fail("%s: Secret %s is neither in the manifests nor in the list of Secrets operators create", at, name)
	} else if key != "" && !keys[key] {
		c.fail("%s: Secret %s has no key %s", at, name, key)
	}
}

func (c *cluster) checkService(o object, s *corev1.Service) {
	pods := c.matching(s.Spec.Selector)
	if len(pods) == 0 {
		c.fail("%s: selects no pods", o)
		return
	}
	for _, port := range s.Spec.Ports {
		for _, w := range pods {
			if !w.hasPort(port.TargetPort, port.Port) {
				c.fail("%s: target port %s of port %d is not a port of %s %s", o, port.TargetPort.String(),
					port.Port, w.kind, w.name)
			}
		}
	}
}

func (w workload) hasPort(target intstr.IntOrString, fallback int32) bool {
	for _, container := range w.pod.Containers {
		for _, p := range container.Ports {
			switch {
			case target.Type == intstr.String && target.StrVal != "" && p.Name == target.StrVal:
				return true
			case target.Type == intstr.Int && target.IntVal != 0 && p.ContainerPort == target.IntVal:
				return true
			case target.Type == intstr.Int && target.IntVal == 0 && p.ContainerPort == fallback:
				return true
			}
		}
	}
	return false
}

func (c *cluster) checkAutoscaler(o object, h *autoscalingv2.HorizontalPodAutoscaler) {
	for _, w := range c.workloads {
		if w.kind == h.Spec.ScaleTargetRef.Kind && w.name == h.Spec.ScaleTargetRef.Name {
			if h.Spec.MinReplicas != nil && *h.Spec.MinReplicas > h.Spec.MaxReplicas {
				c.fail("%s: minReplicas above maxReplicas", o)
			}
			return
		}
	}
	c.fail("%s: scales %s %s, which is not in the manifests", o, h.Spec.ScaleTargetRef.Kind,
		h.Spec.ScaleTargetRef.Name)
}

// operatorPods: the labels of pods that operators create from the custom resources in the manifests.
func (c *cluster) operatorPods(selector map[string]string) bool {
	for _, o := range c.objects {
		switch o.kind {
		case "Cluster":
			if len(selector) == 1 && selector["cnpg.io/cluster"] == o.name {
				return true
			}
		case "OpenTelemetryCollector":
			if len(selector) == 1 && selector["app.kubernetes.io/name"] == o.name+"-collector" {
				return true
			}
		}
	}
	return false
}

func (c *cluster) checkNetworkPolicy(o object, p *networkingv1.NetworkPolicy) {
	selected := c.matching(p.Spec.PodSelector.MatchLabels)
	all := len(p.Spec.PodSelector.MatchLabels) == 0 && len(p.Spec.PodSelector.MatchExpressions) == 0
	if !all && len(selected) == 0 && !c.operatorPods(p.Spec.PodSelector.MatchLabels) {
		c.fail("%s: selects no pods", o)
	}
	for _, rule := range p.Spec.Ingress {
		for _, peer := range rule.From {
			if peer.PodSelector == nil || peer.NamespaceSelector != nil {
				continue
			}
			labels := peer.PodSelector.MatchLabels
			// Labels under agora.dev/ mark pods outside these manifests (trusted clients of the exchange).
			outside := false
			for k := range labels {
				outside = outside || strings.HasPrefix(k, "agora.dev/")
			}
			if !outside && len(c.matching(labels)) == 0 && !c.operatorPods(labels) {
				c.fail("%s: a rule lets in pods labelled %v, and there are none", o, labels)
			}
		}
		for _, port := range rule.Ports {
			if port.Port == nil {
				continue
			}
			for _, w := range selected {
				if !w.hasPort(*port.Port, 0) {
					c.fail("%s: port %s is not a port of %s %s", o, port.Port.String(), w.kind, w.name)
				}
			}
		}
	}
}

func (c *cluster) checkIngress(o object, ing *networkingv1.Ingress) {
	for _, rule := range ing.Spec.Rules {
		if rule.HTTP == nil {
			continue
		}
		for _, path := range rule.HTTP.Paths {
			backend := path.Backend.Service
			if backend == nil {
				c.fail("%s: path %s has no Service backend", o, path.Path)
				continue
			}
			s, ok := c.services[backend.Name]
			if !ok {
				c.fail("%s: path %s goes to Service %s, which is not in the manifests", o, path.Path, backend.Name)
				continue
			}
			found := false
			for _, port := range s.Spec.Ports {
				found = found || (backend.Port.Name != "" && port.Name == backend.Port.Name) ||
					(backend.Port.Number != 0 && port.Port == backend.Port.Number)
			}
			if !found {
				c.fail("%s: Service %s has no port %v", o, backend.Name, backend.Port)
			}
		}
	}
}

func (c *cluster) databaseHostKnown(jdbc string) bool {
	u, err := url.Parse(strings.TrimPrefix(jdbc, "jdbc:"))
	if err != nil {
		return false
	}
	for _, o := range c.objects {
		if o.kind == "Cluster" && u.Hostname() == o.name+"-rw" && (u.Port() == "" || u.Port() == "5432") {
			return true
		}
	}
	return false
}

// checkSettings: the replica lists name Services (and StatefulSet pods) that exist, on their ports.
func (c *cluster) checkSettings() {
	settings, ok := c.configMap["agora-settings"]
	if !ok {
		c.fail("ConfigMap agora-settings is missing")
		return
	}
	for _, key := range []string{"CATALOG_INSTANCES", "ORDER_INSTANCES", "EXCHANGE_INSTANCES", "FRONTEND_INSTANCES",
		"AGORA_SECURITY_AUTHORITIES"} {
		value := settings[key]
		if value == "" {
			c.fail("agora-settings: %s is missing", key)
			continue
		}
		for _, entry := range strings.Split(value, ",") {
			if problem := c.reachable(strings.TrimSpace(entry)); problem != "" {
				c.fail("agora-settings: %s: %s", key, problem)
			}
		}
	}
	// Every frontend the autoscaler may run is listed, so the catalogs push invalidations to each.
	for _, o := range c.objects {
		h, ok := o.typed.(*autoscalingv2.HorizontalPodAutoscaler)
		if !ok || h.Spec.ScaleTargetRef.Kind != "StatefulSet" {
			continue
		}
		listed := len(strings.Split(settings["FRONTEND_INSTANCES"], ","))
		if h.Spec.ScaleTargetRef.Name == "frontend" && listed != int(h.Spec.MaxReplicas) {
			c.fail("agora-settings: FRONTEND_INSTANCES lists %d frontends, the autoscaler may run %d", listed,
				h.Spec.MaxReplicas)
		}
	}
}

// reachable: "" when the URL names a Service of the manifests on one of its ports, or a pod of a StatefulSet
// through its headless Service (name-N.service), N below what the autoscaler or the replica count allows.
func (c *cluster) reachable(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" || u.Port() == "" {
		return fmt.Sprintf("%q is not a URL with a host and a port", raw)
	}
	port, _ := strconv.Atoi(u.Port())
	host := u.Hostname()
	if parts := strings.SplitN(host, ".", 2); len(parts) == 2 {
		serviceName := parts[1]
		for _, o := range c.objects {
			set, ok := o.typed.(*appsv1.StatefulSet)
			if !ok || set.Spec.ServiceName != serviceName || !strings.HasPrefix(parts[0], set.Name+"-") {
				continue
			}
			ordinal, err := strconv.Atoi(strings.TrimPrefix(parts[0], set.Name+"-"))
			if err != nil || ordinal < 0 || ordinal >= int(c.maxReplicas("StatefulSet", set.Name, replicas(set.Spec.Replicas))) {
				return fmt.Sprintf("%s: no such pod of StatefulSet %s", raw, set.Name)
			}
			host = serviceName
		}
	}
	s, ok := c.services[host]
	if !ok {
		return fmt.Sprintf("%s: no Service %s", raw, host)
	}
	for _, p := range s.Spec.Ports {
		if int(p.Port) == port {
			return ""
		}
	}
	return fmt.Sprintf("%s: Service %s has no port %d", raw, host, port)
}

func (c *cluster) maxReplicas(kind, name string, fallback int32) int32 {
	for _, o := range c.objects {
		if h, ok := o.typed.(*autoscalingv2.HorizontalPodAutoscaler); ok &&
			h.Spec.ScaleTargetRef.Kind == kind && h.Spec.ScaleTargetRef.Name == name {
			return h.Spec.MaxReplicas
		}
	}
	return fallback
}
