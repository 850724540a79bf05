{{/* The chart's name, or nameOverride. */}}
{{- define "leasecron.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The objects' name: the release name, with the chart's name added unless it is already in it. */}}
{{- define "leasecron.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "leasecron.selectorLabels" -}}
app.kubernetes.io/name: {{ include "leasecron.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "leasecron.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "leasecron.selectorLabels" . }}
app.kubernetes.io/version: {{ default .Chart.AppVersion .Values.image.tag | trunc 63 | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: scheduler
{{- end }}

{{- define "leasecron.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{- define "leasecron.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "leasecron.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret holding the database URL and credentials: the user's, or the one the chart makes. */}}
{{- define "leasecron.databaseSecretName" -}}
{{- default (printf "%s-database" (include "leasecron.fullname" .)) .Values.database.existingSecret }}
{{- end }}

{{/*
Seconds Kubernetes waits between the start of termination and SIGKILL. The pod spends them on the
preStop pause, then (after SIGTERM) on the rounds still running, up to shutdownGrace, then on the
daemon's wind-down (releasing leases, closing pools, at most 5 s), plus a margin for the JVM's exit.
*/}}
{{- define "leasecron.terminationGracePeriodSeconds" -}}
{{- add .Values.lifecycle.preStopSleepSeconds .Values.shutdownGraceSeconds 5 .Values.lifecycle.terminationMarginSeconds }}
{{- end }}

{{/* Paths inside the container; the image (Dockerfile and -Pjib) puts things there. */}}
{{- define "leasecron.configDir" -}}/etc/leasecron{{- end }}
{{- define "leasecron.pluginsDir" -}}/opt/leasecron/plugins{{- end }}
{{- define "leasecron.dataDir" -}}/var/lib/leasecron{{- end }}
