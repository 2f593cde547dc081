variable "region" {
  description = "AWS region of the stack."
  type        = string
  default     = "sa-east-1"
}

variable "name_prefix" {
  description = "Prefix of every resource name (the ECS cluster is called this)."
  type        = string
  default     = "coworkflow"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,20}$", var.name_prefix))
    error_message = "Lower-case letters, digits and hyphens, 2 to 21 characters, starting with a letter."
  }
}

variable "availability_zones" {
  description = "The two availability zones of the stack. Empty: <region>a and <region>b."
  type        = list(string)
  default     = []

  validation {
    condition     = length(var.availability_zones) == 0 || length(var.availability_zones) == 2
    error_message = "Name exactly two zones, or none."
  }
}

variable "vpc_cidr" {
  description = "CIDR block of the VPC (a /16 is split into /20 subnets, public and private, in two AZs)."
  type        = string
  default     = "10.40.0.0/16"
}

variable "single_nat_gateway" {
  description = "One NAT gateway for both AZs (cheaper; an AZ outage then cuts egress for the other)."
  type        = bool
  default     = false
}

variable "certificate_arn" {
  description = "ACM certificate for HTTPS on the load balancer. Empty: plain HTTP only (first bring-up); set: port 80 redirects to 443."
  type        = string
  default     = ""
}

variable "allowed_ingress_cidrs" {
  description = "Addresses allowed to reach the load balancer."
  type        = list(string)
  default     = ["0.0.0.0/0"]
}

variable "image_tag" {
  description = "Image tag of the task definitions Terraform registers. deploy.yml registers later revisions with the commit sha."
  type        = string
  default     = "latest"
}

variable "desired_count" {
  description = "Tasks per deployable (two: one per AZ) unless desired_counts says otherwise."
  type        = number
  default     = 2
}

variable "desired_counts" {
  description = "Per-deployable task counts that override desired_count."
  type        = map(number)
  default     = {}
}

variable "gateway_hosts" {
  description = "Services the gateway hosts in its own process (docs/deploy.md, \"Choosing the shape\"): their routes, reactions and timers run in the gateway's tasks, which lose their SERVICE_<NAME>_URL and gain AMQP_URL; their own ECS services run no task. [\"reservas\"] saves the HTTP hop of every booking."
  type        = set(string)
  default     = []

  validation {
    condition     = alltrue([for name in var.gateway_hosts : contains(["usuarios", "espacos", "precos", "reservas", "checkin", "notificacoes", "financeiro", "analytics", "assinaturas", "pagamentos"], name)])
    error_message = "gateway_hosts names services the gateway calls: usuarios, espacos, precos, reservas, checkin, notificacoes, financeiro, analytics, assinaturas or pagamentos."
  }
}

variable "autoscaling_max_count" {
  description = "Most tasks CPU-based autoscaling may run per deployable."
  type        = number
  default     = 6
}

variable "autoscaling_cpu_target" {
  description = "Average CPU utilisation (percent) that target tracking keeps each autoscaled service at."
  type        = number
  default     = 60
}

variable "log_retention_days" {
  description = "Retention of every CloudWatch log group."
  type        = number
  default     = 365
}

variable "log_level" {
  description = "LOG_LEVEL of the deployables (trace ... critical)."
  type        = string
  default     = "info"
}

variable "service_namespace" {
  description = "Private DNS namespace (Cloud Map) in which the gateway finds the services, e.g. usuarios.coworkflow.local."
  type        = string
  default     = "coworkflow.local"
}

variable "db_instance_class" {
  description = "RDS instance class."
  type        = string
  default     = "db.t4g.medium"
}

variable "db_engine_version" {
  description = "PostgreSQL major version (DESIGN: 15); RDS applies minor upgrades in the maintenance window."
  type        = string
  default     = "15"
}

variable "db_allocated_storage" {
  description = "Initial storage (GiB); storage autoscaling grows it up to db_max_allocated_storage."
  type        = number
  default     = 20
}

variable "db_max_allocated_storage" {
  description = "Storage autoscaling ceiling (GiB)."
  type        = number
  default     = 200
}

variable "db_multi_az" {
  description = "A standby in the second AZ with automatic failover."
  type        = bool
  default     = true
}

variable "db_backup_retention_days" {
  description = "Days of automated backups (point-in-time recovery window)."
  type        = number
  default     = 14
}

variable "db_deletion_protection" {
  description = "Refuse to delete the database (set false, apply, then destroy, to tear the stack down)."
  type        = bool
  default     = true
}

variable "db_name" {
  description = "Database that holds the event store and the read models."
  type        = string
  default     = "coworkflow"
}

variable "db_master_username" {
  description = "RDS master user: owns the schema and runs `coworkflow migrate`; its password is managed by RDS in Secrets Manager."
  type        = string
  default     = "coworkflow"
}

variable "db_app_username" {
  description = "Role the deployables connect as (read/append on events, never update/delete); created by the db-bootstrap task."
  type        = string
  default     = "coworkflow_app"
}

variable "db_app_password_version" {
  description = "Bump to generate a new application database password (then deploy: db-bootstrap applies it)."
  type        = number
  default     = 1
}

variable "jwt_secret_version" {
  description = "Bump to generate a new JWT signing secret (every session ends; redeploy all deployables)."
  type        = number
  default     = 1
}

variable "psp_sandbox_routes" {
  description = "PSP_SANDBOX_ROUTES of pagamentos and the gateway: \"on\" serves the sandbox's tester routes (/api/sandbox/...: pay or decline a charge), for a demo stack whose provider is the sandbox inside pagamentos. Never \"on\" with a real provider (psp_url): a member could mark their own charge paid."
  type        = string
  default     = "off"

  validation {
    condition     = contains(["on", "off"], var.psp_sandbox_routes) && !(var.psp_sandbox_routes == "on" && var.psp_url != "")
    error_message = "\"on\" or \"off\"; \"on\" only without psp_url (the sandbox inside pagamentos)."
  }
}

variable "psp_url" {
  description = "PSP_URL of pagamentos and the gateway: the payment provider's API base, http(s)://host[:port]. Empty: a sandbox provider inside pagamentos (one task, its charges in memory)."
  type        = string
  default     = ""

  validation {
    condition     = var.psp_url == "" || can(regex("^https?://[^/?#\\s]+$", var.psp_url))
    error_message = "Empty, or http(s)://host[:port] (no path or query)."
  }
}

variable "psp_webhook_secret_version" {
  description = "Bump to generate a new PSP_WEBHOOK_SECRET (replaces a key put by the operator; redeploy pagamentos and the gateway)."
  type        = number
  default     = 1
}

variable "db_bootstrap_image" {
  description = "Image with psql for the one-off db-bootstrap task (creates the application role)."
  type        = string
  default     = "public.ecr.aws/docker/library/postgres:15-bookworm"
}

variable "mq_instance_type" {
  description = "Amazon MQ for RabbitMQ instance type (mq.t3.micro allows SINGLE_INSTANCE only)."
  type        = string
  default     = "mq.m5.large"
}

variable "mq_deployment_mode" {
  description = "CLUSTER_MULTI_AZ (three nodes, quorum queues replicated) or SINGLE_INSTANCE."
  type        = string
  default     = "CLUSTER_MULTI_AZ"

  validation {
    condition     = contains(["CLUSTER_MULTI_AZ", "SINGLE_INSTANCE"], var.mq_deployment_mode)
    error_message = "CLUSTER_MULTI_AZ or SINGLE_INSTANCE."
  }
}

variable "mq_engine_version" {
  description = "RabbitMQ engine version on Amazon MQ."
  type        = string
  default     = "3.13"
}

variable "mq_username" {
  description = "RabbitMQ user the deployables connect as."
  type        = string
  default     = "coworkflow"
}

variable "smtp_host" {
  description = "SMTP server of notificacoes; its user and password go into the smtp secret. Empty: no mail is sent (written to /tmp/outbox in the task, lost when it stops)."
  type        = string
  default     = ""
}

variable "smtp_port" {
  description = "SMTP port of notificacoes (submission with STARTTLS)."
  type        = number
  default     = 587
}

variable "smtp_from" {
  description = "Sender address of notificacoes' e-mails."
  type        = string
  default     = ""
}

variable "smtp_tls" {
  description = "SMTP_TLS of notificacoes: required (STARTTLS or fail), starttls (when the server offers it) or none."
  type        = string
  default     = "required"

  validation {
    condition     = contains(["required", "starttls", "none"], var.smtp_tls)
    error_message = "required, starttls or none."
  }
}

variable "lembrete_horas" {
  description = "LEMBRETE_HORAS of notificacoes: hours before a booking (a tour, a community event with a place) starts that its reminder goes out."
  type        = number
  default     = 24

  validation {
    condition     = var.lembrete_horas >= 1 && floor(var.lembrete_horas) == var.lembrete_horas
    error_message = "A whole number of hours, at least 1."
  }
}

variable "lembrete_correspondencia_dias" {
  description = "LEMBRETE_CORRESPONDENCIA_DIAS of notificacoes: days a letter or parcel waits at the front desk before its member is reminded, once (0: never)."
  type        = number
  default     = 3

  validation {
    condition     = var.lembrete_correspondencia_dias >= 0 && floor(var.lembrete_correspondencia_dias) == var.lembrete_correspondencia_dias
    error_message = "A whole number of days, 0 or more."
  }
}

variable "enable_waf" {
  description = "AWS WAF on the load balancer: AWS managed rule sets and a per-address rate limit."
  type        = bool
  default     = true
}

variable "waf_rate_limit" {
  description = "Requests per 5 minutes from one address before WAF blocks it (the gateway also limits per client and per user)."
  type        = number
  default     = 3000
}

variable "alb_deletion_protection" {
  description = "Refuse to delete the load balancer."
  type        = bool
  default     = true
}

variable "github_repository" {
  description = "owner/name of the GitHub repository whose deploy workflow may assume the deploy role (OIDC). Empty: no deploy role."
  type        = string
  default     = ""
}

variable "github_environment" {
  description = "GitHub environment the deploy jobs run in; only they may assume the deploy role."
  type        = string
  default     = "production"
}

variable "create_github_oidc_provider" {
  description = "Create the account's GitHub OIDC provider (false when the account already has one)."
  type        = bool
  default     = true
}

variable "public_url" {
  description = "PUBLIC_URL of notificacoes: where people open the web app (https://app.example.com), the start of links in e-mails (a company's invitation). Empty: the links are paths only."
  type        = string
  default     = ""

  validation {
    condition     = var.public_url == "" || can(regex("^https?://[^/ ]+$", var.public_url))
    error_message = "Empty, or http(s)://host[:port] without a path or a trailing slash."
  }
}

variable "observability_enabled" {
  description = "An AWS Distro for OpenTelemetry collector beside every backend deployable (ecs-tasks/*.json): the metrics the alarms read into CloudWatch (namespace CoworkFlow), OTLP traces on loopback to X-Ray; and the alarms on those metrics. false: the tasks run without the collector (the load balancer's alarms stay)."
  type        = bool
  default     = true
}

variable "collector_image" {
  description = "Image of the collector container (AWS Distro for OpenTelemetry), pinned to a release tag."
  type        = string
  default     = "public.ecr.aws/aws-observability/aws-otel-collector:v0.50.0"

  validation {
    condition     = can(regex("^[^:@]+(:v[0-9][0-9.]*|@sha256:[0-9a-f]{64})$", var.collector_image))
    error_message = "A release tag (…:v0.50.0) or a digest, never latest."
  }
}

variable "trace_sampling_ratio" {
  description = "The share of requests traced (0 to 1; OTEL_TRACES_SAMPLER_ARG of the backend tasks, sampler parentbased_traceidratio): the gateway starts a trace for that share of the requests, and every service follows the decision of the trace it is called in (parent-based), so a sampled request is traced from the gateway through each service, event and e-mail. Traces go to X-Ray through the collector; without it (observability_enabled false) tracing is off."
  type        = number
  default     = 0.05

  validation {
    condition     = var.trace_sampling_ratio >= 0 && var.trace_sampling_ratio <= 1
    error_message = "A ratio from 0 (no request traced) to 1 (every request)."
  }
}

variable "metrics_log_retention_days" {
  description = "Retention of the collector's log group of embedded-metric lines (CloudWatch keeps the metrics it extracts for 15 months regardless)."
  type        = number
  default     = 30
}

variable "alarm_email" {
  description = "An address subscribed to the alarms' SNS topic (it must confirm the subscription). Empty: subscribe someone (or a chat integration) to the topic yourself."
  type        = string
  default     = ""

  validation {
    condition     = var.alarm_email == "" || can(regex("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", var.alarm_email))
    error_message = "Empty, or an e-mail address."
  }
}

variable "alarm_relay_lag_events" {
  description = "Events the relay may be behind the store's head for 5 minutes before its alarm (infra/observability/alerts.yml uses 100 as well)."
  type        = number
  default     = 100
}
