# The deployable list has one source: ecs-tasks/*.json. Every file is a task definition (the
# input of `aws ecs register-task-definition`) with ${...} placeholders that Terraform fills
# here and deploy.yml fills from the deploy context (deploy_context.tf) with the same names.
# A file whose container is labelled "coworkflow.run" = "one-off" (migrate, admin) is a task to
# run, not a service; every other file is a deployable with an ECS service of that name.
locals {
  tasks_dir  = "${path.module}/../../ecs-tasks"
  task_names = toset([for file in fileset(local.tasks_dir, "*.json") : trimsuffix(file, ".json")])

  # Unrendered: labels, secrets and ports are read before any resource exists.
  task_raw = { for name in local.task_names : name => jsondecode(file("${local.tasks_dir}/${name}.json")) }
  task_labels = {
    for name, task in local.task_raw : name => merge({
      "coworkflow.ingress" = "none"
      "coworkflow.scaling" = "fixed"
    }, try(task.containerDefinitions[0].dockerLabels, {}))
  }

  one_off_tasks = toset([for name in local.task_names : name if lookup(local.task_labels[name], "coworkflow.run", "") == "one-off"])
  deployables   = toset([for name in local.task_names : name if !contains(local.one_off_tasks, name)])

  # Who reaches a deployable: the load balancer ("alb"), the gateway through Cloud Map
  # ("gateway"), or nobody ("none": projections, which only answers its health check).
  behind_alb = toset([for name in local.deployables : name if local.task_labels[name]["coworkflow.ingress"] == "alb"])
  behind_gw  = toset([for name in local.deployables : name if local.task_labels[name]["coworkflow.ingress"] == "gateway"])
  autoscaled = toset([for name in local.deployables : name if local.task_labels[name]["coworkflow.scaling"] == "cpu" && local.task_count[name] > 0 && !contains(local.single_task, name)])
  # A service the gateway hosts runs no task of its own.
  task_count   = { for name in local.deployables : name => contains(var.gateway_hosts, name) ? 0 : contains(local.single_task, name) ? min(1, lookup(var.desired_counts, name, var.desired_count)) : lookup(var.desired_counts, name, var.desired_count) }
  task_port    = { for name, task in local.task_raw : name => try(task.containerDefinitions[0].portMappings[0].containerPort, 8080) }
  stop_timeout = { for name, task in local.task_raw : name => try(task.containerDefinitions[0].stopTimeout, 30) }

  # Without psp_url the sandbox provider lives inside pagamentos, its charges in that process's
  # memory: one task, never autoscaled, so the sandbox's tester routes (forwarded by the
  # gateway) reach the process that holds the charge.
  single_task = var.psp_url == "" ? toset(["pagamentos"]) : toset([])

  # What each task needs on the network, read from its environment and secrets (the gateway's
  # as gateway_hosts changes it below).
  task_variables_own = {
    for name, task in local.task_raw : name => toset(concat(
      [for item in try(task.containerDefinitions[0].environment, []) : item.name],
      [for item in try(task.containerDefinitions[0].secrets, []) : item.name],
    ))
  }
  task_variables = {
    for name, variables in local.task_variables_own : name => name == "gateway" ? setunion(
      setsubtract(variables, local.hosted_url_variables), local.hosted_uses_broker ? ["AMQP_URL"] : []
    ) : variables
  }

  # The services the gateway hosts (var.gateway_hosts): their SERVICE_<NAME>_URL leaves the
  # gateway's environment, and AMQP_URL joins its secrets when one of them consumes a queue.
  hosted_url_variables = [for name in var.gateway_hosts : "SERVICE_${upper(name)}_URL"]
  hosted_uses_broker   = anytrue([for name in var.gateway_hosts : contains(local.task_variables_own[name], "AMQP_URL")])
  hosted_secrets       = local.hosted_uses_broker ? [{ name = "AMQP_URL", valueFrom = local.task_template_common.amqp_secret_arn }] : []
  uses_database        = toset([for name in local.task_names : name if contains(local.task_variables[name], "DB_HOST")])
  uses_broker          = toset([for name in local.task_names : name if contains(local.task_variables[name], "AMQP_URL")])
  uses_smtp            = toset([for name in local.task_names : name if contains(local.task_variables[name], "SMTP_HOST")])

  # The image a task runs: its own repository, or for a one-off task the repository its
  # "coworkflow.image" label names (the backend images all hold the same binary).
  task_image_repository = {
    for name in local.task_names : name => contains(local.one_off_tasks, name) ? lookup(local.task_labels[name], "coworkflow.image", "gateway") : name
  }

  # Placeholders shared by every task. deploy_context.tf publishes the same map for deploy.yml.
  task_template_common = {
    region                        = var.region
    name_prefix                   = var.name_prefix
    log_level                     = var.log_level
    db_host                       = aws_db_instance.main.address
    db_port                       = tostring(aws_db_instance.main.port)
    db_name                       = var.db_name
    service_namespace             = var.service_namespace
    task_role_arn                 = aws_iam_role.task.arn
    db_app_secret_arn             = aws_secretsmanager_secret.db_app.arn
    db_master_secret_arn          = aws_db_instance.main.master_user_secret[0].secret_arn
    jwt_secret_arn                = aws_secretsmanager_secret.jwt.arn
    amqp_secret_arn               = aws_secretsmanager_secret.amqp_url.arn
    smtp_secret_arn               = aws_secretsmanager_secret.smtp.arn
    psp_webhook_secret_arn        = aws_secretsmanager_secret.psp_webhook.arn
    psp_api_key_secret_arn        = aws_secretsmanager_secret.psp_api_key.arn
    admin_secret_arn              = aws_secretsmanager_secret.admin_bootstrap.arn
    smtp_host                     = var.smtp_host
    smtp_port                     = tostring(var.smtp_port)
    smtp_from                     = var.smtp_from
    smtp_tls                      = var.smtp_tls
    lembrete_horas                = tostring(var.lembrete_horas)
    lembrete_correspondencia_dias = tostring(var.lembrete_correspondencia_dias)
    public_url                    = var.public_url
    psp_url                       = var.psp_url
    psp_sandbox_routes            = var.psp_sandbox_routes
    # The load balancer's nodes live in the public subnets: only they name the client in
    # X-Forwarded-For (the gateway's TRUSTED_PROXIES).
    trusted_proxies = join(",", local.public_cidrs)
    # The collector container (observability.tf); deploy_checks.py render drops it, as
    # local.tasks below does, when observability_enabled is "false".
    observability_enabled          = tostring(var.observability_enabled)
    collector_image                = var.collector_image
    collector_config_parameter_arn = try(aws_ssm_parameter.collector_config[0].arn, "")
    metrics_log_group              = try(aws_cloudwatch_log_group.metrics[0].name, "")
    # Traces (OTEL_EXPORTER_OTLP_ENDPOINT of every task with the collector): its OTLP/HTTP
    # receiver on loopback, or empty, which turns the program's tracing off, when there is no
    # collector. OTEL_TRACES_SAMPLER_ARG: the share of requests traced, parent-based.
    otlp_endpoint        = var.observability_enabled ? "http://127.0.0.1:4318" : ""
    trace_sampling_ratio = tostring(var.trace_sampling_ratio)
  }

  # Placeholders per task.
  task_template_own = {
    for name in local.task_names : name => {
      image              = "${aws_ecr_repository.this[local.task_image_repository[name]].repository_url}:${var.image_tag}"
      execution_role_arn = aws_iam_role.execution[name].arn
      log_group          = aws_cloudwatch_log_group.task[name].name
    }
  }

  tasks_rendered = {
    for name in local.task_names : name => jsondecode(templatefile(
      "${local.tasks_dir}/${name}.json", merge(local.task_template_common, local.task_template_own[name])
    ))
  }
  # The gateway's own container as gateway_hosts changes it (deploy_checks.py render does the
  # same for deploy.yml), then the others, less the collector when observability is off.
  tasks = {
    for name, task in local.tasks_rendered : name => merge(task, {
      containerDefinitions = concat(
        [
          for container in task.containerDefinitions : merge(container, {
            environment = [for item in container.environment : item if !contains(local.hosted_url_variables, item.name)]
            secrets     = concat(container.secrets, local.hosted_secrets)
          }) if name == "gateway" && container.name == "gateway"
        ],
        [
          for container in task.containerDefinitions : container
          if !(name == "gateway" && container.name == "gateway") && (var.observability_enabled || container.name != local.collector_container)
        ],
      )
    })
  }

  # The secrets each task reads: "${jwt_secret_arn}" or "${db_app_secret_arn}:password::"
  # name a placeholder; its value is the secret's ARN. The execution role may read those only.
  task_secret_arns = {
    for name, task in local.task_raw : name => distinct(concat([
      for item in try(task.containerDefinitions[0].secrets, []) :
      local.task_template_common[regex("^\\$\\{([a-z0-9_]+)\\}", item.valueFrom)[0]]
    ], name == "gateway" ? [for item in local.hosted_secrets : item.valueFrom] : []))
  }
}

resource "terraform_data" "task_files_check" {
  input = local.task_names

  lifecycle {
    precondition {
      condition     = contains(local.deployables, "gateway") && contains(local.deployables, "frontend")
      error_message = "ecs-tasks/ must hold gateway.json and frontend.json: the load balancer routes to them."
    }
    precondition {
      condition     = !contains(var.gateway_hosts, "pagamentos") || var.psp_url != ""
      error_message = "gateway_hosts may name pagamentos only with psp_url: the sandbox provider keeps its charges in one process, and the gateway runs several."
    }
    precondition {
      condition     = length(setsubtract(keys(var.desired_counts), local.deployables)) == 0
      error_message = "desired_counts names a deployable that has no ecs-tasks/<name>.json."
    }
    precondition {
      condition     = alltrue([for name in local.one_off_tasks : contains(local.deployables, local.task_image_repository[name])])
      error_message = "A one-off task's coworkflow.image label must name a backend deployable."
    }
  }
}
