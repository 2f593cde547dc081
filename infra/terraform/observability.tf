# Observability on AWS (issue 41): an AWS Distro for OpenTelemetry collector beside every
# backend deployable (the "aws-otel-collector" container of ecs-tasks/*.json) scrapes the
# application's /metrics every 30 s and writes the metrics the alarms read to CloudWatch
# (embedded metric format, namespace CoworkFlow, dimension Service); it also takes the OTLP
# traces the application sends on loopback (OTEL_EXPORTER_OTLP_ENDPOINT, tasks.tf) to X-Ray.
# Its configuration is infra/observability/adot-config.yaml, handed over in an SSM parameter
# (AOT_CONFIG_CONTENT).
# The alarms cover the signals of infra/observability/alerts.yml: the load balancer's 5xx
# share and p99 (its own metrics), the relay's lag, a projection failing, dead letters and the
# database pool; they notify an SNS topic. docs/observability.md is the runbook.
locals {
  collector_container = "aws-otel-collector"
  metrics_namespace   = "CoworkFlow"

  # The deployables whose task definition holds the collector: every backend deployable
  # (scripts/deploy_checks.py tasks). None while observability_enabled is false.
  observed = var.observability_enabled ? toset([
    for name, task in local.task_raw : name
    if anytrue([for container in task.containerDefinitions : container.name == local.collector_container])
  ]) : toset([])
  # The event consumers (their own queue) and the users of the database, among them.
  observed_consumers = toset([for name in local.observed : name if contains(local.uses_broker, name) && name != "projections"])
  observed_pools     = setintersection(local.observed, local.uses_database)

  # Comments dropped (the parameter's size); a YAML error fails the plan, not the collector.
  collector_config = yamlencode(yamldecode(file("${path.module}/../observability/adot-config.yaml")))

  alarm_actions = [aws_sns_topic.alarms.arn]
}

# --- the collector -----------------------------------------------------------------------------
resource "aws_ssm_parameter" "collector_config" {
  #checkov:skip=CKV2_AWS_34:The collector's configuration holds no secret (the repository's infra/observability/adot-config.yaml); a String keeps the execution roles free of KMS permissions.
  count       = var.observability_enabled ? 1 : 0
  name        = "/${var.name_prefix}/observability/collector-config"
  description = "AOT_CONFIG_CONTENT of the aws-otel-collector containers (infra/observability/adot-config.yaml)"
  type        = "String"
  tier        = length(local.collector_config) > 4096 ? "Advanced" : "Standard"
  value       = local.collector_config
}

# The embedded-metric lines the collector writes; CloudWatch extracts the metrics from them.
resource "aws_cloudwatch_log_group" "metrics" {
  #checkov:skip=CKV_AWS_338:These lines only carry metrics into CloudWatch, which keeps the extracted metrics for 15 months; a month of the raw lines is enough for Logs Insights (metrics_log_retention_days).
  count             = var.observability_enabled ? 1 : 0
  name              = "/${var.name_prefix}/metrics"
  retention_in_days = var.metrics_log_retention_days
  kms_key_id        = aws_kms_key.main.arn
}

# ECS reads the configuration for the container: each deployable's execution role may read
# that one parameter.
data "aws_iam_policy_document" "collector_config" {
  count = var.observability_enabled ? 1 : 0

  statement {
    sid       = "ReadCollectorConfig"
    actions   = ["ssm:GetParameters"]
    resources = [aws_ssm_parameter.collector_config[0].arn]
  }
}

resource "aws_iam_role_policy" "collector_config" {
  for_each = local.observed
  name     = "collector-config"
  role     = aws_iam_role.execution[each.key].id
  policy   = data.aws_iam_policy_document.collector_config[0].json
}

# What the collector calls, with the task role (the application itself calls no AWS API).
# The embedded metric format goes through CloudWatch Logs (PutLogEvents), so there is no
# cloudwatch:PutMetricData here.
data "aws_iam_policy_document" "collector" {
  count = var.observability_enabled ? 1 : 0

  statement {
    sid       = "WriteEmbeddedMetrics"
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"]
    resources = [aws_cloudwatch_log_group.metrics[0].arn, "${aws_cloudwatch_log_group.metrics[0].arn}:*"]
  }

  # X-Ray has no resource-level permissions for it: "*" is the only resource.
  statement {
    sid       = "SendTraces"
    actions   = ["xray:PutTraceSegments"]
    resources = ["*"]
  }
}

resource "aws_iam_role_policy" "collector" {
  count  = var.observability_enabled ? 1 : 0
  name   = "collector"
  role   = aws_iam_role.task.id
  policy = data.aws_iam_policy_document.collector[0].json
}

# --- where the alarms go -----------------------------------------------------------------------
# CloudWatch cannot publish to a topic under the AWS-managed SNS key, and the stack's key
# (kms.tf) grants CloudWatch nothing: the topic has its own key.
resource "aws_kms_key" "alarms" {
  description             = "${var.name_prefix}: the alarms' SNS topic"
  enable_key_rotation     = true
  deletion_window_in_days = 30
  policy                  = data.aws_iam_policy_document.alarms_key.json
}

resource "aws_kms_alias" "alarms" {
  name          = "alias/${var.name_prefix}-alarms"
  target_key_id = aws_kms_key.alarms.key_id
}

data "aws_iam_policy_document" "alarms_key" {
  #checkov:skip=CKV_AWS_111:A key policy's "*" resource means this key only; write access is limited to the account (IAM decides) and CloudWatch's data keys.
  #checkov:skip=CKV_AWS_356:A key policy's "*" resource means this key only.
  #checkov:skip=CKV_AWS_109:The account root statement is the default key policy: it delegates the key's administration to IAM policies instead of locking the account out.
  statement {
    sid       = "AccountAdministers"
    actions   = ["kms:*"]
    resources = ["*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:${data.aws_partition.current.partition}:iam::${data.aws_caller_identity.current.account_id}:root"]
    }
  }

  # CloudWatch encrypts the alarm notifications it publishes to the topic.
  statement {
    sid       = "CloudWatchPublishesAlarms"
    actions   = ["kms:Decrypt", "kms:GenerateDataKey*"]
    resources = ["*"]
    principals {
      type        = "Service"
      identifiers = ["cloudwatch.amazonaws.com"]
    }
  }
}

resource "aws_sns_topic" "alarms" {
  name              = "${var.name_prefix}-alarms"
  display_name      = "CoworkFlow alarmes"
  kms_master_key_id = aws_kms_key.alarms.arn
}

resource "aws_sns_topic_subscription" "alarm_email" {
  count     = var.alarm_email == "" ? 0 : 1
  topic_arn = aws_sns_topic.alarms.arn
  protocol  = "email"
  endpoint  = var.alarm_email
}

# --- the load balancer's own metrics (no collector needed) -------------------------------------
resource "aws_cloudwatch_metric_alarm" "alb_5xx" {
  for_each            = local.behind_alb
  alarm_name          = "${var.name_prefix}-${each.key}-5xx"
  alarm_description   = "Há 5 minutos mais de 2 % das respostas de ${each.key} no balanceador são erros do servidor (5xx). Runbook: docs/observability.md#coworkflowerros5xx"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 2
  evaluation_periods  = 5
  datapoints_to_alarm = 5
  treat_missing_data  = "notBreaching"
  alarm_actions       = local.alarm_actions
  ok_actions          = local.alarm_actions

  metric_query {
    id          = "share"
    expression  = "100 * FILL(errors, 0) / requests"
    label       = "5xx (% of requests)"
    return_data = true
  }

  metric_query {
    id = "errors"
    metric {
      namespace   = "AWS/ApplicationELB"
      metric_name = "HTTPCode_Target_5XX_Count"
      period      = 60
      stat        = "Sum"
      dimensions = {
        LoadBalancer = aws_lb.main.arn_suffix
        TargetGroup  = aws_lb_target_group.this[each.key].arn_suffix
      }
    }
  }

  metric_query {
    id = "requests"
    metric {
      namespace   = "AWS/ApplicationELB"
      metric_name = "RequestCount"
      period      = 60
      stat        = "Sum"
      dimensions = {
        LoadBalancer = aws_lb.main.arn_suffix
        TargetGroup  = aws_lb_target_group.this[each.key].arn_suffix
      }
    }
  }
}

# No route streams (no text/event-stream responses), so every request's time counts.
resource "aws_cloudwatch_metric_alarm" "alb_p99" {
  for_each            = local.behind_alb
  alarm_name          = "${var.name_prefix}-${each.key}-p99"
  alarm_description   = "Há 10 minutos 1 % das requisições a ${each.key} leva mais de 1 s. Runbook: docs/observability.md#coworkflowlatenciap99"
  namespace           = "AWS/ApplicationELB"
  metric_name         = "TargetResponseTime"
  extended_statistic  = "p99"
  period              = 60
  comparison_operator = "GreaterThanThreshold"
  threshold           = 1
  evaluation_periods  = 10
  datapoints_to_alarm = 10
  treat_missing_data  = "notBreaching"
  alarm_actions       = local.alarm_actions
  ok_actions          = local.alarm_actions
  dimensions = {
    LoadBalancer = aws_lb.main.arn_suffix
    TargetGroup  = aws_lb_target_group.this[each.key].arn_suffix
  }
}

# --- the application's metrics, through the collector ------------------------------------------
# Gauges treat missing data as missing: a silent collector leaves the alarm where it was (and
# INSUFFICIENT_DATA before the first value) instead of calling it healthy.
resource "aws_cloudwatch_metric_alarm" "relay_lag" {
  count               = contains(local.observed, "projections") ? 1 : 0
  alarm_name          = "${var.name_prefix}-relay-lag"
  alarm_description   = "Há 5 minutos o relay está mais de ${var.alarm_relay_lag_events} eventos atrás do log: os serviços que reagem a eventos não veem os novos. Runbook: docs/observability.md#coworkflowrelayatrasado"
  namespace           = local.metrics_namespace
  metric_name         = "coworkflow_subscription_lag_events"
  statistic           = "Maximum"
  period              = 60
  comparison_operator = "GreaterThanThreshold"
  threshold           = var.alarm_relay_lag_events
  evaluation_periods  = 5
  datapoints_to_alarm = 5
  treat_missing_data  = "missing"
  alarm_actions       = local.alarm_actions
  ok_actions          = local.alarm_actions
  dimensions = {
    Service      = "projections"
    subscription = "relay"
  }
}

resource "aws_cloudwatch_metric_alarm" "projection_failing" {
  count               = contains(local.observed, "projections") ? 1 : 0
  alarm_name          = "${var.name_prefix}-projection-failing"
  alarm_description   = "Há 2 minutos uma projeção não consegue acompanhar o log (o /saude de projections diz qual). Runbook: docs/observability.md#coworkflowprojecaofalhando"
  namespace           = local.metrics_namespace
  metric_name         = "coworkflow_projection_failing"
  statistic           = "Maximum"
  period              = 60
  comparison_operator = "GreaterThanOrEqualToThreshold"
  threshold           = 1
  evaluation_periods  = 2
  datapoints_to_alarm = 2
  treat_missing_data  = "missing"
  alarm_actions       = local.alarm_actions
  ok_actions          = local.alarm_actions
  dimensions = {
    Service = "projections"
  }
}

# Any dead letter in the last 10 minutes (one-minute sums); OK again after 10 clean minutes.
resource "aws_cloudwatch_metric_alarm" "dead_letters" {
  for_each            = local.observed_consumers
  alarm_name          = "${var.name_prefix}-${each.key}-dead-letters"
  alarm_description   = "${each.key} pôs eventos de lado (dead letters) nos últimos 10 minutos. Runbook: docs/observability.md#coworkflowdeadletters"
  namespace           = local.metrics_namespace
  metric_name         = "coworkflow_bus_dead_lettered_total"
  statistic           = "Sum"
  period              = 60
  comparison_operator = "GreaterThanThreshold"
  threshold           = 0
  evaluation_periods  = 10
  datapoints_to_alarm = 1
  treat_missing_data  = "notBreaching"
  alarm_actions       = local.alarm_actions
  ok_actions          = local.alarm_actions
  dimensions = {
    Service = each.key
  }
}

# The busiest task's share of its pool in use, or 1 while requests wait for a connection.
resource "aws_cloudwatch_metric_alarm" "pool" {
  for_each            = local.observed_pools
  alarm_name          = "${var.name_prefix}-${each.key}-db-pool"
  alarm_description   = "Há 5 minutos ${each.key} usa mais de 90 % do pool de conexões com o banco, ou há requisições esperando conexão. Runbook: docs/observability.md#coworkflowpoolquaseesgotado"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 0.9
  evaluation_periods  = 5
  datapoints_to_alarm = 5
  treat_missing_data  = "missing"
  alarm_actions       = local.alarm_actions
  ok_actions          = local.alarm_actions

  metric_query {
    id          = "usage"
    expression  = "IF(waiting > 0, 1, inuse / size)"
    label       = "pool in use (1: requests waiting)"
    return_data = true
  }

  metric_query {
    id = "inuse"
    metric {
      namespace   = local.metrics_namespace
      metric_name = "coworkflow_store_pool_connections_in_use"
      period      = 60
      stat        = "Maximum"
      dimensions  = { Service = each.key }
    }
  }

  metric_query {
    id = "size"
    metric {
      namespace   = local.metrics_namespace
      metric_name = "coworkflow_store_pool_connections_max"
      period      = 60
      stat        = "Maximum"
      dimensions  = { Service = each.key }
    }
  }

  metric_query {
    id = "waiting"
    metric {
      namespace   = local.metrics_namespace
      metric_name = "coworkflow_store_pool_waiting"
      period      = 60
      stat        = "Maximum"
      dimensions  = { Service = each.key }
    }
  }
}
