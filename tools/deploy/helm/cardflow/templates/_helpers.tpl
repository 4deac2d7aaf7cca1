{{/*
Names, labels and the pieces every cardflow pod shares: security contexts, the secret files,
the Temporal connection's variables. The variables a component reads are listed in
platform/config/schema.ts; test/kubernetes/ holds the rendered ones to it.
*/}}

{{- define "cardflow.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "cardflow.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "cardflow.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "cardflow.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels every object carries. */}}
{{- define "cardflow.labels" -}}
app.kubernetes.io/name: {{ include "cardflow.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The selector of one component's pods: (dict "root" $ "component" "worker"). */}}
{{- define "cardflow.selector" -}}
app.kubernetes.io/name: {{ include "cardflow.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* An image reference: (dict "root" $ "image" <image values, may leave out repository or tag>). */}}
{{- define "cardflow.image" -}}
{{- $repository := default .root.Values.image.repository .image.repository -}}
{{- $tag := default .root.Chart.AppVersion (default .root.Values.image.tag .image.tag) -}}
{{- printf "%s:%s" $repository $tag -}}
{{- end -}}

{{/*
The restricted Pod Security Standard: non-root (the image's `node` user), no privilege
escalation, every capability dropped, the runtime's default seccomp profile, and a read-only
root filesystem (the processes write only to /tmp, an emptyDir; their stores are in PostgreSQL).
*/}}
{{- define "cardflow.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "cardflow.containerSecurityContext" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Where the secret files are mounted; each `_FILE` variable names a file under it. */}}
{{- define "cardflow.secretsDir" -}}/run/secrets/cardflow{{- end -}}

{{/*
One secret file of a component, as JSON for cardflow.secretsVolume: (dict "root" $ "name"
"codecKeys" "path" "codec_keys"), where `name` is a key of .Values.secrets and `path` the file's
name under cardflow.secretsDir. Fails, naming the value, when that secret is not configured.
*/}}
{{- define "cardflow.secretFile" -}}
{{- $ref := index .root.Values.secrets .name -}}
{{- if not (and $ref $ref.secretName $ref.key) -}}
{{- fail (printf "secrets.%s: set secretName and key (the Secret holding it; docs/kubernetes.md)" .name) -}}
{{- end -}}
{{- toJson (dict "secretName" $ref.secretName "key" $ref.key "path" .path) -}}
{{- end -}}

{{/*
One projected volume holding a component's secret files: (dict "root" $ "files" (list ...)),
each file a dict of `secretName`, `key` and `path` (relative to cardflow.secretsDir).
Readable by the pod's group (fsGroup) only.
*/}}
{{- define "cardflow.secretsVolume" -}}
- name: secrets
  projected:
    defaultMode: 0440
    sources:
      {{- range .files }}
      - secret:
          name: {{ .secretName }}
          items:
            - key: {{ .key }}
              path: {{ .path }}
      {{- end }}
{{- end -}}

{{/* The mounts every cardflow container has: its secret files and a writable /tmp. */}}
{{- define "cardflow.volumeMounts" -}}
- name: secrets
  mountPath: {{ include "cardflow.secretsDir" . }}
  readOnly: true
- name: tmp
  mountPath: /tmp
{{- end -}}

{{- define "cardflow.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- end -}}

{{/*
The secret files of a Temporal caller: (dict "root" $ "caller" "worker"|"webhooks"|"setup"), as
a list of file dicts for cardflow.secretsVolume (JSON, read back with fromJsonArray).
*/}}
{{- define "cardflow.temporalFiles" -}}
{{- $t := .root.Values.temporal -}}
{{- $files := list -}}
{{- if and $t.tls.enabled $t.tls.ca.secretName -}}
{{- $files = append $files (dict "secretName" $t.tls.ca.secretName "key" $t.tls.ca.key "path" "temporal-tls/ca.pem") -}}
{{- end -}}
{{- $cert := index $t.tls.clientCertificates .caller -}}
{{- if and $t.tls.enabled $cert -}}
{{- $files = append $files (dict "secretName" $cert "key" "tls.crt" "path" "temporal-tls/client.pem") -}}
{{- $files = append $files (dict "secretName" $cert "key" "tls.key" "path" "temporal-tls/client-key.pem") -}}
{{- end -}}
{{- if $t.token.enabled -}}
{{- $token := index $t.token.secrets .caller -}}
{{- if not (and $token $token.secretName $token.key) -}}
{{- fail (printf "temporal.token.secrets.%s: set secretName and key (the caller's token; temporal.token.enabled is on)" .caller) -}}
{{- end -}}
{{- $files = append $files (dict "secretName" $token.secretName "key" $token.key "path" "temporal-token") -}}
{{- end -}}
{{- toJson $files -}}
{{- end -}}

{{/* The Temporal connection's variables of a caller (read by @temporalio/envconfig): (dict "root" $ "caller" ...). */}}
{{- define "cardflow.temporalEnv" -}}
{{- $t := .root.Values.temporal -}}
{{- $dir := include "cardflow.secretsDir" .root -}}
- name: TEMPORAL_ADDRESS
  value: {{ required "temporal.address: set the Temporal frontend's host:port" $t.address | quote }}
- name: TEMPORAL_NAMESPACE
  value: {{ required "temporal.namespace: set the Temporal namespace" $t.namespace | quote }}
{{- if $t.tls.enabled }}
- name: TEMPORAL_TLS
  value: "true"
{{- if $t.tls.ca.secretName }}
- name: TEMPORAL_TLS_SERVER_CA_CERT_PATH
  value: {{ $dir }}/temporal-tls/ca.pem
{{- end }}
{{- if $t.tls.serverName }}
- name: TEMPORAL_TLS_SERVER_NAME
  value: {{ $t.tls.serverName | quote }}
{{- end }}
{{- if index $t.tls.clientCertificates .caller }}
- name: TEMPORAL_TLS_CLIENT_CERT_PATH
  value: {{ $dir }}/temporal-tls/client.pem
- name: TEMPORAL_TLS_CLIENT_KEY_PATH
  value: {{ $dir }}/temporal-tls/client-key.pem
{{- end }}
{{- end }}
{{- if $t.token.enabled }}
- name: {{ $t.token.variable }}
  value: {{ $dir }}/temporal-token
{{- end }}
{{- end -}}

{{/* What every long-running cardflow process reads: the environment interlock, codec keys, logs. */}}
{{- define "cardflow.commonEnv" -}}
- name: CARDFLOW_ENV
  value: {{ .Values.environment | quote }}
{{- if .Values.sandboxHosts }}
- name: CARDFLOW_SANDBOX_HOSTS
  value: {{ .Values.sandboxHosts | quote }}
{{- end }}
- name: CARDFLOW_CODEC_KEYS_FILE
  value: {{ include "cardflow.secretsDir" . }}/codec_keys
- name: CARDFLOW_LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
{{- end -}}

{{/* Traces, when an OTLP endpoint is configured (worker and receiver). */}}
{{- define "cardflow.tracingEnv" -}}
{{- if .Values.tracing.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .Values.tracing.endpoint | quote }}
{{- if .Values.tracing.sampleRatio }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ .Values.tracing.sampleRatio | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* A component's own extra variables (a map of name to value), sorted so renders are stable. */}}
{{- define "cardflow.extraEnv" -}}
{{- range $name, $value := . }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/* The HTTP probes of a process on `port`: startup and liveness on /healthz, readiness on /readyz. */}}
{{- define "cardflow.probes" -}}
startupProbe:
  httpGet:
    path: /healthz
    port: {{ .port }}
  periodSeconds: 2
  timeoutSeconds: 2
  failureThreshold: {{ .startupFailures }}
readinessProbe:
  httpGet:
    path: /readyz
    port: {{ .port }}
  periodSeconds: 5
  # /readyz's checks each answer within 2 s (platform/health/checks.ts).
  timeoutSeconds: 3
  failureThreshold: 2
livenessProbe:
  httpGet:
    path: /healthz
    port: {{ .port }}
  periodSeconds: 10
  timeoutSeconds: 5
  failureThreshold: 6
{{- end -}}

{{/* Spread a component's replicas over nodes where the scheduler can (never blocks scheduling). */}}
{{- define "cardflow.scheduling" -}}
{{- $s := .root.Values.scheduling -}}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- .selector | nindent 8 }}
{{- with $s.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $s.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $s.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
